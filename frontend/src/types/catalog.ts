// JSON shapes the catalog and content endpoints answer (docs/api.md), as the storefront reads them.

export interface Product {
  _id: string;
  name: string;
  des: string;
  des2: string;
  sort: number;
  Isdefault: boolean;
  /** Pounds, 2 decimals. */
  price: number;
  /** The pack label, e.g. "24 x 330ml". */
  qty: string;
  /** Units in stock. */
  TheNumber: number;
  /** Upload names, served at /uploads/{name}. */
  image: string[];
  /** Whole percentage 0-100. */
  discount: number;
  /** Pounds: price minus the discount, computed by the server. */
  Discountprice: number;
  category?: string | null;
  createdAt?: string;
  updatedAt?: string;
}

export interface Category {
  _id: string;
  name: string;
  des: string;
  image: string[];
}

export interface PagedProducts {
  product: Product[];
  pages: number;
  result?: { next?: { page?: number | null } | null } | null;
}

export interface HomePayload {
  product: Product[];
  category: Category[];
}

export interface SearchPayload {
  comment: PagedProducts;
}

export interface SocialLinks {
  facebook?: string;
  instagram?: string;
  x?: string;
  twitter?: string;
  tiktok?: string;
  youtube?: string;
}

/** Site info ("connect"): the shop's name, contact details, hours and social links. */
export interface SiteInfo {
  /** `"main"`; null until the site info is created. */
  _id: string | null;
  name?: string;
  des?: string;
  cover_des?: string;
  image?: string[] | string;
  phone?: string;
  email?: string;
  open?: string;
  close?: string;
  address?: string;
  Social?: SocialLinks;
  /** A promotion line. */
  discount?: string;
  createdAt?: string;
  updatedAt?: string;
}

/** GET /api/contact/: the shop's contact details (the site info's contact fields). */
export type ContactInfo = Pick<SiteInfo, 'phone' | 'email' | 'address' | 'open' | 'close'>;

/** A content entry: about, who-we-are, policy or link. */
export interface AboutRecord {
  _id: string;
  name: string;
  des: string;
  link?: string;
  image?: string[];
  sort?: number;
}

/** An about, who-we-are, policy or link record (docs/api.md: Entry). */
export interface Entry {
  _id: string;
  name: string;
  des: string;
  link: string;
  image: string[];
  sort: number;
  createdAt?: string;
  updatedAt?: string;
}

/** GET /api/home_uk/palestine/about/show_result/ */
export interface AboutPayload {
  about: Entry[];
  whoweare: Entry[];
  connect: SiteInfo;
}
