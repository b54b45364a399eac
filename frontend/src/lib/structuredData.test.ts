import { describe, expect, it } from 'vitest';
import { siteInfo } from '../testing/fixtures';
import type { SiteInfo } from '../types/catalog';
import {
  aggregateRating,
  breadcrumbs,
  faqPage,
  graph,
  localBusiness,
  organization,
  OPENING_HOURS_TEXT,
  review,
  serializeJsonLd,
} from './structuredData';

const origin = 'https://shop.example';

describe('JSON-LD builders', () => {
  it('gives the local business the spec opening hours: Mon-Fri 09:00-18:00, Sat 10:00-18:00', () => {
    const store = localBusiness(siteInfo as SiteInfo, origin);
    expect(store['@type']).toBe('Store');
    expect(store.openingHoursSpecification).toEqual([
      {
        '@type': 'OpeningHoursSpecification',
        dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
        opens: '09:00',
        closes: '18:00',
      },
      { '@type': 'OpeningHoursSpecification', dayOfWeek: ['Saturday'], opens: '10:00', closes: '18:00' },
    ]);
    expect(store.telephone).toBe('0113 496 0000');
    expect(OPENING_HOURS_TEXT).toBe('Monday to Friday 09:00-18:00, Saturday 10:00-18:00');
  });

  it('names the organisation with only the social links that are set, and leaves out empty fields', () => {
    const org = organization({ _id: 'main', name: 'Shop', Social: { facebook: '', instagram: 'https://instagram.com/x', x: '', tiktok: '', youtube: 'https://youtube.com/y' } }, origin);
    expect(org).toEqual({
      '@type': 'Organization',
      '@id': 'https://shop.example/#organization',
      name: 'Shop',
      url: 'https://shop.example/',
      sameAs: ['https://instagram.com/x', 'https://youtube.com/y'],
    });
    expect(organization(null, origin).name).toBe('Palestine Drinks');
  });

  it('builds breadcrumbs with absolute addresses in order', () => {
    expect(breadcrumbs([{ name: 'Home', path: '/' }, { name: 'About us', path: '/about/drinks-about-us' }], origin)).toEqual({
      '@type': 'BreadcrumbList',
      itemListElement: [
        { '@type': 'ListItem', position: 1, name: 'Home', item: 'https://shop.example/' },
        { '@type': 'ListItem', position: 2, name: 'About us', item: 'https://shop.example/about/drinks-about-us' },
      ],
    });
  });

  it('builds an FAQ page of questions and accepted answers', () => {
    expect(faqPage([{ question: 'Q?', answer: 'A.' }]).mainEntity).toEqual([
      { '@type': 'Question', name: 'Q?', acceptedAnswer: { '@type': 'Answer', text: 'A.' } },
    ]);
  });

  it('serialises to valid JSON that cannot close its script element', () => {
    const data = graph(organization({ _id: 'main', name: 'Evil </script><script>alert(1)</script>' }, origin));
    const text = serializeJsonLd(data);
    expect(text).not.toContain('</script>');
    expect(JSON.parse(text)).toEqual(data);
    expect(JSON.parse(text)['@context']).toBe('https://schema.org');
  });

  it('gives a review its author, stars out of 5, text, day and the store it reviews', () => {
    expect(review({ fullname: 'Layla Haddad', rating: 4, comment: 'lovely', createdAt: '2026-11-22T10:00:00Z' }, origin)).toEqual({
      '@type': 'Review',
      author: { '@type': 'Person', name: 'Layla Haddad' },
      reviewRating: { '@type': 'Rating', ratingValue: 4, bestRating: 5, worstRating: 1 },
      reviewBody: 'lovely',
      datePublished: '2026-11-22',
      itemReviewed: { '@id': 'https://shop.example/#store' },
    });
  });

  it('gives an average rating only when there are reviews', () => {
    expect(aggregateRating(4.3, 12)).toEqual({ '@type': 'AggregateRating', ratingValue: 4.3, reviewCount: 12, bestRating: 5, worstRating: 1 });
    expect(aggregateRating(0, 0)).toBeUndefined();
  });
});
