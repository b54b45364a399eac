// The home page's FAQ blocks (the spec: buying, the product, the brand story, contact and the product range),
// with the support e-mail from the site info and the delivery terms the checkout charges in the text. Shown on
// the page and given to search engines as FAQ structured data, so both read the same words.
import { shortMoney, type DeliveryTerms } from '../../lib/delivery';
import { formatMoney } from '../../lib/format';
import type { FaqItem } from '../../lib/structuredData';

export interface FaqBlock extends FaqItem {
  topic: 'buying' | 'product' | 'story' | 'contact' | 'range';
}

/** The delivery terms in a sentence, from the orders function's own figures (never a figure of the page's). */
function deliveryTerms(delivery: DeliveryTerms | null): string {
  if (!delivery) return 'every drink’s page and your basket show the delivery charge before you pay';
  if (delivery.fee <= 0) return 'delivery is free';
  return `delivery costs ${formatMoney(delivery.fee)}, and is free on orders of ${shortMoney(delivery.freeFrom)} or more`;
}

export function faqBlocks(supportEmail: string | undefined, shopName: string, delivery: DeliveryTerms | null = null): FaqBlock[] {
  // Until the site info (with the support e-mail) is held, point at the contact form instead.
  const reach = supportEmail ? `e-mail ${supportEmail}` : 'use our contact form';
  return [
    {
      topic: 'buying',
      question: 'How do I buy your drinks?',
      answer: `Choose your drinks in the shop, add them to your basket and check out with a card. We deliver across the UK; ${deliveryTerms(delivery)}. For help with an order, ${reach}.`,
    },
    {
      topic: 'product',
      question: 'What is in your drinks?',
      answer: `Our soft drinks are made with real fruit flavours and sold by the case. Each drink's page lists its pack size and description; for ingredients or allergy questions, ${reach}.`,
    },
    {
      topic: 'story',
      question: `What is the story behind ${shopName}?`,
      answer: `${shopName} is an independent UK soft-drink brand. Read our story on the About us page; to tell us yours, ${reach}.`,
    },
    {
      topic: 'contact',
      question: 'How can I contact you?',
      answer: `Send a message through our contact page, or ${reach}. We reply within 24 hours on business days (Monday to Friday). Our opening hours are Monday to Friday 09:00-18:00 and Saturday 10:00-18:00.`,
    },
    {
      topic: 'range',
      question: 'Which drinks do you sell?',
      answer: `Our range covers fruity sodas, colas and more, in cans and bottles by the case. Browse the whole range in our shop; looking for something in particular? ${reach.charAt(0).toUpperCase()}${reach.slice(1)}.`,
    },
  ];
}
