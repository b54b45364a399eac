// What home puts in the document head: its title, description and Open Graph tags (the prerendered
// index.html already carries them for a first visit; this restores them when the shopper comes back from
// another page), and the structured search data: the organisation, the shop as a local business with its
// opening hours, breadcrumbs and the FAQ. Its own small chunk, fetched right after the first render, so the
// home page's first script stays within budget.
import { useMemo } from 'react';
import { useAppSelector } from '../../../app/hooks';
import { JsonLd } from '../../../components/JsonLd';
import { SITE_NAME, usePageMeta } from '../../../lib/meta';
import { breadcrumbs, faqPage, graph, localBusiness, organization } from '../../../lib/structuredData';
import { selectSiteInfo } from '../../../state/site/siteSlice';
import { faqBlocks } from '../faq';
import { selectHeldDeliveryTerms } from '../../../lib/delivery';

// The same words as index.html's, so a first visit and a return to home describe the page alike.
const DESCRIPTION =
  'Refreshing soft drinks by the case, delivered across the UK. Browse our drinks, shop by category and order online.';

export function HomeHead() {
  const info = useAppSelector(selectSiteInfo);
  const delivery = useAppSelector(selectHeldDeliveryTerms);
  usePageMeta('', DESCRIPTION);
  const data = useMemo(() => {
    const origin = window.location.origin;
    return graph(
      organization(info, origin),
      localBusiness(info, origin),
      breadcrumbs([{ name: 'Home', path: '/' }], origin),
      faqPage(faqBlocks(info?.email, info?.name || SITE_NAME, delivery)),
    );
  }, [info, delivery]);
  return <JsonLd data={data} />;
}

export default HomeHead;
