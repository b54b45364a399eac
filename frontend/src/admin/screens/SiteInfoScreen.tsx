// /new/uk/siteinfo: the shop's site info form.
export { SiteInfoScreen as default } from '../content/SiteInfoScreen';
