import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Stars } from './Stars';

describe('Stars', () => {
  it('reads as words and tells filled from empty stars by shape, not colour alone', () => {
    render(<Stars rating={3} />);
    const stars = screen.getByRole('img', { name: '3 out of 5 stars' });
    expect(stars.textContent).toBe('★★★☆☆');
  });
});
