// Demo data in the shapes docs/api.md fixes, for tests.
import type { Entry, Category, HomePayload, ListedDrink, PagedProducts, Product, SiteInfo } from '../types/catalog';

export function makeProduct(overrides: Partial<Product> = {}): Product {
  return {
    _id: 'p-mango',
    name: 'Mango Fizz',
    des: 'Sparkling mango soda.',
    des2: 'Made with real mango juice and a little fizz.',
    sort: 1,
    Isdefault: true,
    price: 4.99,
    qty: '24 x 330ml',
    TheNumber: 120,
    image: ['mango.png'],
    discount: 0,
    Discountprice: 4.99,
    category: 'c-soda',
    ingredients: 'Carbonated water, mango purée (15%), cane sugar, citric acid.',
    allergens: [],
    nutrition: { energyKj: 170, energyKcal: 40, fat: 0, saturates: 0, carbohydrate: 9.6, sugars: 9.2, protein: 0.1, salt: 0 },
    caffeineMgPerLitre: null,
    minimumAge: null,
    storage: 'Store in a cool, dry place.',
    statements: [],
    pricePerLitre: 0.63,
    wasPrice: null,
    promotionStart: null,
    promotionEnd: null,
    createdAt: '2026-11-22T10:00:00Z',
    updatedAt: '2026-11-22T10:00:00Z',
    ...overrides,
  };
}

export const mango = makeProduct();
export const cola = makeProduct({
  _id: 'p-cola',
  name: 'Classic Cola',
  des: 'The original.',
  price: 12.5,
  qty: '12 x 500ml',
  image: ['cola.png', 'cola-side.png'],
  discount: 10,
  Discountprice: 11.25,
  pricePerLitre: 1.88,
  promotionStart: '2026-11-20',
});
export const lemon = makeProduct({ _id: 'p-lemon', name: 'Lemon Sparkle', price: 3.2, qty: '6 x 330ml', image: [], TheNumber: 0 });

export const sodas: Category = {
  _id: 'c-soda',
  name: 'Sodas',
  des: 'Fizzy fruit sodas',
  image: ['sodas.png'],
  createdAt: '2026-11-01T10:00:00Z',
  updatedAt: '2026-11-01T10:00:00Z',
};

export const homePayload: HomePayload = { product: [mango, cola, lemon], category: [sodas] };

/** A page of the drinks list: `next` is left out on the last page, as the back end does. */
export function page(products: ListedDrink[], pageNumber: number, pages: number): PagedProducts {
  return { product: products, pages, result: pageNumber < pages ? { next: { page: pageNumber + 1 } } : {} };
}

/** `count` distinct drinks named 'Drink 1', 'Drink 2', ... */
export function drinks(count: number, from = 1): Product[] {
  return Array.from({ length: count }, (_, i) =>
    makeProduct({ _id: `p-${from + i}`, name: `Drink ${from + i}`, sort: from + i }),
  );
}

/** The site info as the back end answers it: every field, empty text where none is set. */
export function makeSiteInfo(overrides: Partial<SiteInfo> = {}): SiteInfo {
  return {
    _id: 'main',
    name: '',
    des: '',
    cover_des: '',
    image: [],
    phone: '',
    email: '',
    open: '',
    close: '',
    address: '',
    discount: '',
    vatRate: 20,
    vatNumber: '',
    deliveryEstimate: '2 to 4 working days',
    companyName: '',
    companyNumber: '',
    registeredOffice: '',
    minimumAge: 16,
    Social: { facebook: '', instagram: '', x: '', tiktok: '', youtube: '' },
    ...overrides,
  };
}

export const siteInfo = makeSiteInfo({
  _id: 's-1',
  name: 'Palestine Drinks',
  cover_des: 'Crisp, fruity soft drinks delivered across the UK.',
  email: 'hello@example.com',
  phone: '0113 496 0000',
  open: 'Mon-Fri 09:00-18:00',
  Social: { facebook: '', instagram: 'https://instagram.example/drinks', x: '', tiktok: '', youtube: '' },
});

/** An about, who-we-are, policy or link entry (docs/api.md: Entry). */
export function makeEntry(overrides: Partial<Entry> & Pick<Entry, '_id' | 'name'>): Entry {
  return { des: '', link: '', image: [], sort: 0, createdAt: '2026-11-01T10:00:00Z', updatedAt: '2026-11-20T10:00:00Z', ...overrides };
}

export const aboutEntry = makeEntry({ _id: 'a-1', name: 'How it started', des: 'It began with a family recipe.' });
export const whoEntry = makeEntry({ _id: 'w-1', name: 'The team', des: 'Three friends from Leeds.' });
export const returnsPolicy = makeEntry({
  _id: 'pol-returns',
  name: 'Returns policy',
  des: 'Unopened cases can be returned within 30 days.\nWe refund the full price.',
});
export const stockistsLink = makeEntry({ _id: 'l-1', name: 'Stockists', des: 'Find us in shops', link: '/shop/drinks/' });
