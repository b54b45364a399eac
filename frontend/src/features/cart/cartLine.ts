// A product as a basket line (the spec's cart line shape), priced with its discount.
import { unitPrice } from '../../lib/price';
import type { Product } from '../../types/catalog';
import { clampQty, type CartLine } from './cartSlice';

export function cartLineFromProduct(product: Product, qty = 1): CartLine {
  return {
    product: product._id,
    name: product.name,
    image: product.image[0] ?? '',
    quantity: product.qty,
    price: unitPrice(product),
    des: product.des,
    qty: clampQty(qty),
  };
}
