// Structured search data (JSON-LD, schema.org) for the storefront's pages: the organisation, the shop as a
// local business with its opening hours, breadcrumbs, FAQ, and customers' reviews with their average. Pure builders, so the tests can check them;
// components/JsonLd.tsx puts the result in a `<script type="application/ld+json">`.
import type { SiteInfo } from '../types/catalog';
import { SITE_NAME } from './meta';

/** The spec's opening hours: Monday to Friday 09:00-18:00, Saturday 10:00-18:00. */
export const OPENING_HOURS = [
  { days: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'], opens: '09:00', closes: '18:00', label: 'Monday to Friday' },
  { days: ['Saturday'], opens: '10:00', closes: '18:00', label: 'Saturday' },
] as const;

/** The opening hours as a sentence, for pages and the footer when the site info has no text of its own. */
export const OPENING_HOURS_TEXT = OPENING_HOURS.map((h) => `${h.label} ${h.opens}-${h.closes}`).join(', ');

export interface Crumb {
  name: string;
  /** A path on this site: '/about/drinks-about-us'. */
  path: string;
}

export interface FaqItem {
  question: string;
  answer: string;
}

type Thing = Record<string, unknown>;

/** What the page knows about the shop: the site info, or only part of it (the contact page's details). */
type ShopDetails = Partial<SiteInfo>;

const absolute = (origin: string, path: string): string => new URL(path, origin).toString();

function sameAs(info: ShopDetails | null): string[] {
  const social = info?.Social;
  return [social?.facebook, social?.instagram, social?.x, social?.tiktok, social?.youtube].filter(
    (link): link is string => typeof link === 'string' && link.length > 0,
  );
}

function logo(info: ShopDetails | null, origin: string): string | undefined {
  const image = Array.isArray(info?.image) ? info.image[0] : info?.image;
  return image ? absolute(origin, `/uploads/${encodeURIComponent(image)}`) : undefined;
}

/** Drops keys whose value is undefined or an empty string or list: schema.org wants them left out. */
function compact(thing: Thing): Thing {
  return Object.fromEntries(
    Object.entries(thing).filter(([, v]) => v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0)),
  );
}

export function organization(info: ShopDetails | null, origin: string): Thing {
  return compact({
    '@type': 'Organization',
    '@id': absolute(origin, '/#organization'),
    name: info?.name || SITE_NAME,
    url: absolute(origin, '/'),
    logo: logo(info, origin),
    email: info?.email,
    telephone: info?.phone,
    sameAs: sameAs(info),
  });
}

export function localBusiness(info: ShopDetails | null, origin: string): Thing {
  return compact({
    '@type': 'Store',
    '@id': absolute(origin, '/#store'),
    name: info?.name || SITE_NAME,
    description: info?.des || info?.cover_des,
    url: absolute(origin, '/'),
    image: logo(info, origin),
    email: info?.email,
    telephone: info?.phone,
    address: info?.address ? { '@type': 'PostalAddress', streetAddress: info.address, addressCountry: 'GB' } : undefined,
    areaServed: 'GB',
    currenciesAccepted: 'GBP',
    parentOrganization: { '@id': absolute(origin, '/#organization') },
    openingHoursSpecification: OPENING_HOURS.map((h) => ({
      '@type': 'OpeningHoursSpecification',
      dayOfWeek: [...h.days],
      opens: h.opens,
      closes: h.closes,
    })),
  });
}

export function breadcrumbs(crumbs: Crumb[], origin: string): Thing {
  return {
    '@type': 'BreadcrumbList',
    itemListElement: crumbs.map((crumb, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: crumb.name,
      item: absolute(origin, crumb.path),
    })),
  };
}

export function faqPage(items: FaqItem[]): Thing {
  return {
    '@type': 'FAQPage',
    mainEntity: items.map((item) => ({
      '@type': 'Question',
      name: item.question,
      acceptedAnswer: { '@type': 'Answer', text: item.answer },
    })),
  };
}

export interface ReviewEntry {
  fullname: string;
  rating: number;
  comment: string;
  /** ISO 8601. */
  createdAt: string;
}

/** A customer's review of the shop (the Store of `localBusiness`). */
export function review(entry: ReviewEntry, origin: string): Thing {
  return compact({
    '@type': 'Review',
    author: { '@type': 'Person', name: entry.fullname },
    reviewRating: { '@type': 'Rating', ratingValue: entry.rating, bestRating: 5, worstRating: 1 },
    reviewBody: entry.comment,
    datePublished: entry.createdAt.slice(0, 10),
    itemReviewed: { '@id': absolute(origin, '/#store') },
  });
}

/** The average of `count` reviews, for a Store's `aggregateRating`; undefined without reviews. */
export function aggregateRating(average: number, count: number): Thing | undefined {
  if (!(count > 0)) return undefined;
  return { '@type': 'AggregateRating', ratingValue: average, reviewCount: count, bestRating: 5, worstRating: 1 };
}

/** Several things in one document. */
export function graph(...things: Thing[]): Thing {
  return { '@context': 'https://schema.org', '@graph': things };
}

/** JSON safe inside a script element: '<' is escaped, so no text can close the element early. */
export function serializeJsonLd(data: Thing): string {
  return JSON.stringify(data).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/** What the product builder reads of a drink (the API's Product has these). */
export interface DrinkFacts {
  _id: string;
  name: string;
  des: string;
  image: string[];
  Discountprice: number;
  TheNumber: number;
  nutrition?: {
    energyKcal: number;
    fat: number;
    saturates: number;
    carbohydrate: number;
    sugars: number;
    protein: number;
    salt: number;
  } | null;
}

/** A drink with its offer and, when entered, its nutrition per 100 ml (salt given as sodium, 400 mg a gram). */
export function product(drink: DrinkFacts, path: string, origin: string, producer: { name: string; address: string } | null): Thing {
  const n = drink.nutrition;
  const g = (value: number) => `${value.toFixed(1)} g`;
  return compact({
    '@type': 'Product',
    '@id': absolute(origin, `${path}#product`),
    name: drink.name,
    description: drink.des,
    sku: drink._id,
    image: drink.image.map((name) => absolute(origin, `/uploads/${encodeURIComponent(name)}`)),
    offers: {
      '@type': 'Offer',
      url: absolute(origin, path),
      price: drink.Discountprice.toFixed(2),
      priceCurrency: 'GBP',
      availability: drink.TheNumber > 0 ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
    },
    nutrition: n
      ? {
          '@type': 'NutritionInformation',
          servingSize: '100 ml',
          calories: `${Math.round(n.energyKcal)} kcal`,
          fatContent: g(n.fat),
          saturatedFatContent: g(n.saturates),
          carbohydrateContent: g(n.carbohydrate),
          sugarContent: g(n.sugars),
          proteinContent: g(n.protein),
          sodiumContent: `${Math.round(n.salt * 400)} mg`,
        }
      : undefined,
    manufacturer: producer?.name
      ? compact({
          '@type': 'Organization',
          name: producer.name,
          address: producer.address ? { '@type': 'PostalAddress', streetAddress: producer.address, addressCountry: 'GB' } : undefined,
        })
      : undefined,
  });
}
