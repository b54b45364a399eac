import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../../testing/renderWithProviders';
import { shopApi } from '../../../testing/shopApi';
import { faqBlocks } from '../faq';

interface Thing {
  '@type': string;
  [key: string]: unknown;
}

describe('Home content', () => {
  it('shows the link entries, an about teaser with the site info texts and the FAQ with the support e-mail', async () => {
    renderApp('/', { deps: { fetch: shopApi().fetch } });
    const links = await screen.findByTestId('home-links');
    expect(within(links).getByRole('link', { name: /Stockists/ })).toHaveAttribute('href', '/shop/drinks/');
    expect(screen.getByRole('heading', { name: 'About Palestine Drinks' })).toBeInTheDocument();
    expect(screen.getByText('Crisp, fruity soft drinks delivered across the UK.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Read our story' })).toHaveAttribute('href', '/about/drinks-about-us');
    const faq = screen.getByTestId('faq');
    expect(within(faq).getAllByRole('group')).toHaveLength(5);
    expect(faq).toHaveTextContent('hello@example.com');
  });

  it('puts valid JSON-LD on the page: organisation, store with opening hours, breadcrumbs and FAQ', async () => {
    renderApp('/', { deps: { fetch: shopApi().fetch } });
    await screen.findByTestId('faq');
    const script = document.querySelector('script[type="application/ld+json"]');
    const data = JSON.parse(script?.textContent ?? '') as { '@graph': Thing[] };
    expect(data['@graph'].map((t) => t['@type'])).toEqual(['Organization', 'Store', 'BreadcrumbList', 'FAQPage']);
    const store = data['@graph'][1]!;
    expect(store.openingHoursSpecification).toHaveLength(2);
    expect(JSON.stringify(data['@graph'][3])).toContain('hello@example.com');
  });

  it('covers buying, the product, the brand story, contact and the range, each naming the support e-mail', () => {
    const blocks = faqBlocks('help@shop.example', 'The Shop');
    expect(blocks.map((b) => b.topic)).toEqual(['buying', 'product', 'story', 'contact', 'range']);
    for (const block of blocks) expect(block.answer).toContain('help@shop.example');
    expect(blocks.find((b) => b.topic === 'contact')?.answer).toMatch(/24 hours on business days \(Monday to Friday\)/);
  });

  it('words the delivery terms the checkout charges, never a figure of its own', () => {
    const buying = (terms: Parameters<typeof faqBlocks>[2]) => faqBlocks('help@shop.example', 'The Shop', terms).find((b) => b.topic === 'buying')?.answer;
    expect(buying({ fee: 3.5, freeFrom: 30 })).toContain('delivery costs £3.50, and is free on orders of £30 or more');
    expect(buying(null)).not.toMatch(/£\d/);
  });
});
