// The app's Link: the route's address in href, a plain click navigates in the app (with history state), and
// a click the page or the shopper means otherwise (handled by onClick, with a modifier key) is left alone.
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { Link } from './Link';

function Where() {
  const { pathname, state } = useLocation();
  return <p data-testid="where">{`${pathname} ${JSON.stringify(state)}`}</p>;
}

function renderAt(link: React.ReactElement) {
  return render(
    <MemoryRouter initialEntries={['/start']}>
      <Routes>
        <Route path="*" element={<>{link}<Where /></>} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('Link', () => {
  it('points at the route and navigates in the app on a click, with its state', async () => {
    renderAt(
      <Link to="/shop/drinks/" className="cta" aria-label="All drinks" state={{ from: '/start' }}>
        Shop
      </Link>,
    );
    const link = screen.getByRole('link', { name: 'All drinks' });
    expect(link).toHaveAttribute('href', '/shop/drinks/');
    expect(link).toHaveClass('cta');
    await userEvent.setup().click(link);
    expect(screen.getByTestId('where')).toHaveTextContent('/shop/drinks/ {"from":"/start"}');
  });

  it('runs onClick first, and does not navigate when it prevents the default', async () => {
    const onClick = vi.fn((event: React.MouseEvent) => event.preventDefault());
    renderAt(
      <Link to="/shop/drinks/" onClick={onClick}>
        Shop
      </Link>,
    );
    await userEvent.setup().click(screen.getByRole('link', { name: 'Shop' }));
    expect(onClick).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('where')).toHaveTextContent('/start null');
  });

  it('leaves a click with a modifier key (a new tab) to the browser', () => {
    renderAt(<Link to="/shop/drinks/">Shop</Link>);
    const notPrevented = fireEvent.click(screen.getByRole('link', { name: 'Shop' }), { ctrlKey: true, button: 0 });
    expect(notPrevented).toBe(true);
    expect(screen.getByTestId('where')).toHaveTextContent('/start null');
  });
});
