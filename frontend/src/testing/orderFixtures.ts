// Orders and codes in the shapes docs/api.md fixes, for the checkout, order and admin tests.
import type { Order, Refund } from '../lib/orderTypes';
import type { Paged } from '../lib/paging';

export function makeOrder(overrides: Partial<Order> = {}): Order {
  return {
    _id: 'o-1234abcd-0000',
    number: 'PD-10001',
    carrier: null,
    trackingNumber: null,
    trackingUrl: null,
    history: [
      { status: 'pending', at: '2026-11-22T10:00:00Z' },
      { status: 'paid', at: '2026-11-22T10:00:05Z' },
    ],
    product: [
      { product: 'p-mango', name: 'Mango Fizz', image: 'mango.png', qty: 2, quantity: '24 x 330ml', price: 4.99 },
      { product: 'p-cola', name: 'Classic Cola', image: 'cola.png', qty: 1, quantity: '24 x 330ml', price: 11.25 },
    ],
    subtotal: 21.23,
    discount: 2.12,
    shipping: 4.99,
    total: 24.1,
    vatRate: 20,
    vat: 4.02,
    code: 'SUMMER',
    codeRate: 10,
    status: 'paid',
    fullname: 'Layla Haddad',
    address: '12 Olive Street, Leeds',
    addressLine1: null,
    addressLine2: null,
    town: null,
    postcode: null,
    ageCheck: false,
    phone: '07700 900123',
    email: 'layla@example.com',
    message: '',
    card: { brand: 'visa', last4: '4242' },
    wasPaid: true,
    archivedAt: null,
    termsVersion: 1,
    createdAt: '2026-11-22T10:00:00Z',
    updatedAt: '2026-11-22T10:00:00Z',
    refunded: 0,
    refunds: [],
    ...overrides,
  };
}

/** A refund as the order lists it (its credit note at 20% VAT). */
export function makeRefund(overrides: Partial<Refund> = {}): Refund {
  return {
    _id: 're_1AbC',
    amount: 4.99,
    reason: 'A can arrived dented',
    createdAt: '2026-11-25T09:30:00Z',
    status: 'succeeded',
    lines: [{ product: 'p-mango', name: 'Mango Fizz', qty: 1 }],
    delivery: false,
    restocked: true,
    late: false,
    creditNote: { number: 'CN-10001', date: '2026-11-25T09:30:00Z', amount: 4.99, vat: 0.83, vatRate: 20 },
    ...overrides,
  };
}

export function orders(count: number, from = 1): Order[] {
  return Array.from({ length: count }, (_, i) =>
    makeOrder({ _id: `o-${String(from + i).padStart(4, '0')}`, fullname: `Customer ${from + i}` }),
  );
}

/** A page of the admin's list as the server answers it: a next page carries where this one ended. */
export function orderPage(list: Order[], pageNumber: number, pages: number): Paged<Order> {
  const last = list.at(-1);
  const cursor = last ? `${last.createdAt}#${last._id}` : '';
  return { product: list, pages, result: pageNumber < pages ? { next: { page: pageNumber + 1, cursor } } : {} };
}
