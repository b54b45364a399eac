// /checkout: placeholder until the checkout issue lands.
import { Placeholder } from '../../../components/Placeholder';

export default function CheckoutPage() {
  return (
    <Placeholder
      title="Checkout"
      description="Enter your delivery details and pay for your drinks securely."
      holds={[
        'Delivery: full name, address, phone, e-mail and a message',
        'Payment: card number, expiration date (MM/YY) and security code',
        'Order summary: subtotal, shipping, total and a discount code',
      ]}
    />
  );
}
