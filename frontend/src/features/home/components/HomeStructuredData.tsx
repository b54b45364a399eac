// Home's structured search data: the organisation, the shop as a local business with its opening hours,
// breadcrumbs and the FAQ. Its own small chunk, fetched right after the first render, so the home page's
// first script stays within budget.
import { useMemo } from 'react';
import { useAppSelector } from '../../../app/hooks';
import { JsonLd } from '../../../components/JsonLd';
import { SITE_NAME } from '../../../lib/meta';
import { breadcrumbs, faqPage, graph, localBusiness, organization } from '../../../lib/structuredData';
import { selectSiteInfo } from '../../site/siteSlice';
import { faqBlocks } from '../faq';

export function HomeStructuredData() {
  const info = useAppSelector(selectSiteInfo);
  const data = useMemo(() => {
    const origin = window.location.origin;
    return graph(
      organization(info, origin),
      localBusiness(info, origin),
      breadcrumbs([{ name: 'Home', path: '/' }], origin),
      faqPage(faqBlocks(info?.email, info?.name || SITE_NAME)),
    );
  }, [info]);
  return <JsonLd data={data} />;
}

export default HomeStructuredData;
