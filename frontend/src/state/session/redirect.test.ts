import { describe, expect, it } from 'vitest';
import { cameFromAdmin, fromOf, loginDestination } from './redirect';

describe('where a login leads', () => {
  it('sends an admin back into the admin screen they came from', () => {
    expect(loginDestination('/new/uk', true)).toBe('/new/uk');
    expect(loginDestination('/new/uk/users', true)).toBe('/new/uk/users');
  });

  it('does not send a customer back to the admin area', () => {
    expect(loginDestination('/new/uk/users', false)).toBe('/account/order');
  });

  it('sends anyone else back where they came from', () => {
    expect(loginDestination('/checkout', false)).toBe('/checkout');
    expect(loginDestination('/account/profile', true)).toBe('/account/profile');
    expect(loginDestination('/shop/drinks/?category=c-1', false)).toBe('/shop/drinks/?category=c-1');
  });

  it('falls back to the orders (an admin to the dashboard), never to another site or the login page', () => {
    for (const from of [undefined, null, '', 'https://evil.example/', '//evil.example/x', '/drinks/login', 42]) {
      expect(loginDestination(from, false)).toBe('/account/order');
      expect(loginDestination(from, true)).toBe('/new/uk');
    }
  });

  it('reads the guard state', () => {
    expect(fromOf({ from: '/new/uk' })).toBe('/new/uk');
    expect(fromOf(null)).toBeUndefined();
    expect(fromOf({ from: 3 })).toBeUndefined();
    expect(cameFromAdmin('/new/uk/order')).toBe(true);
    expect(cameFromAdmin('/new/ukraine')).toBe(false);
    expect(cameFromAdmin('/account/order')).toBe(false);
  });
});
