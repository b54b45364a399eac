import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../testing/renderWithProviders';
import { shopApi } from '../testing/shopApi';
import { siteInfo } from '../testing/fixtures';

describe('Footer', () => {
  it('shows the contact details, opening hours, only the social links that are set, and every policy', async () => {
    const api = shopApi({
      'GET /api/connect/uk/palestine/connect/': { ...siteInfo, close: 'Sunday', Social: { instagram: 'https://instagram.com/d', x: '', youtube: 'https://youtube.com/d' } },
    });
    renderApp('/', { deps: { fetch: api.fetch } });
    const footer = await screen.findByRole('contentinfo');
    expect(await within(footer).findByTestId('footer-phone')).toHaveTextContent('0113 496 0000');
    expect(within(footer).getByTestId('footer-phone')).toHaveAttribute('href', 'tel:01134960000');
    expect(within(footer).getByRole('link', { name: 'hello@example.com' })).toBeInTheDocument();
    expect(within(footer).getByText('Open Mon-Fri 09:00-18:00')).toBeInTheDocument();
    expect(within(footer).getByText('Closed Sunday')).toBeInTheDocument();
    const social = within(footer).getByRole('list', { name: 'Follow us' });
    expect(within(social).getAllByRole('link').map((a) => a.textContent)).toEqual(['Instagram', 'YouTube']);
    const policies = await within(footer).findByRole('navigation', { name: 'Policies' });
    expect(within(policies).getByRole('link', { name: 'Returns policy' })).toHaveAttribute('href', '/drinks/policies/pol-returns');
  });

  it('names the company, its number and registered office and the VAT number', async () => {
    const api = shopApi({
      'GET /api/connect/uk/palestine/connect/': {
        ...siteInfo,
        vatNumber: 'GB123456789',
        companyName: 'Palestine Drinks Ltd',
        companyNumber: '12345678',
        registeredOffice: '1 Mill Yard\nLeeds LS1 1AA',
      },
    });
    renderApp('/', { deps: { fetch: api.fetch } });
    const footer = await screen.findByRole('contentinfo');
    expect(await within(footer).findByTestId('footer-legal')).toHaveTextContent(
      'Palestine Drinks Ltd, company number 12345678, registered office 1 Mill Yard, Leeds LS1 1AA · VAT number GB123456789',
    );
  });

  it('falls back to the spec opening hours and leaves out the policies when there are none', async () => {
    const api = shopApi({ 'GET /api/connect/uk/palestine/connect/': { _id: null }, 'GET /api/policy/': [] });
    renderApp('/', { deps: { fetch: api.fetch } });
    const footer = await screen.findByRole('contentinfo');
    expect(await within(footer).findByText('Open Monday to Friday 09:00-18:00, Saturday 10:00-18:00')).toBeInTheDocument();
    expect(within(footer).queryByRole('navigation', { name: 'Policies' })).not.toBeInTheDocument();
    expect(within(footer).queryByRole('list', { name: 'Follow us' })).not.toBeInTheDocument();
  });
});
