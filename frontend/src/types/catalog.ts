// JSON shapes the catalog and content endpoints answer, as the API's OpenAPI document (read off the Rust
// types) describes them: a change of shape on the server breaks this build.
import type { Schemas } from '../lib/api';

/**
 * A drink. `price` and `Discountprice` (the price minus the discount, computed by the server) are pounds with
 * 2 decimals, `discount` a whole percentage 0-100, `qty` the pack label ("24 x 330ml"), `TheNumber` the
 * units in stock, `image` upload names served at /uploads/{name}.
 */
export type Product = Schemas['Product'];

/**
 * A drink as the shop's lists, search and home answer it: a `Product` with `avgRating` (to a tenth, 0 without
 * reviews) and `totalComments` (the number of reviews), both absent when the ratings are not known.
 */
export type ListedDrink = Schemas['ListedDrink'];

export type Category = Schemas['Category'];

/** A page of drinks (the shop's list, a search). */
export type PagedProducts = Schemas['Page_of_ListedDrink'];

/** The shop's orders (`?sort=` of the drinks list). */
export type SortOrder = Schemas['SortOrder'];

/** GET /api/home/home/uk/ */
export type HomePayload = Schemas['Home'];

/** GET /api/home/search/uk/palestinedrinks */
export type SearchPayload = Schemas['SearchResult'];

export type SocialLinks = Schemas['Social'];

/** Site info ("connect"): the shop's name, contact details, hours and social links; `_id` null until created. */
export type SiteInfo = Schemas['SiteInfo'];

/** GET /api/contact/: the shop's contact details (the site info's contact fields). */
export type ContactInfo = Schemas['Contact'];

/** An about, who-we-are, policy or link record. */
export type Entry = Schemas['Entry'];

/** One kept version of a policy: its words as they were served from `savedAt`. */
export type PolicyVersion = Schemas['PolicyVersion'];

/** A policy's kept versions, newest first, without their words. */
export type PolicyVersionSummary = Schemas['PolicyVersionSummary'];

/** GET /api/home_uk/palestine/about/show_result/ */
export type AboutPayload = Schemas['AboutPage'];
