import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { headingAnchor, Paragraphs } from './Paragraphs';

describe('Paragraphs', () => {
  it('makes "## " lines headings with anchors, the rest paragraphs', () => {
    render(<Paragraphs text={'Intro.\n## Model cancellation form\nTo: the shop'} />);
    expect(screen.getByRole('heading', { level: 2, name: 'Model cancellation form' })).toHaveAttribute('id', 'model-cancellation-form');
    expect(screen.getByText('To: the shop').tagName).toBe('P');
    expect(headingAnchor("  Returns & your right to cancel! ")).toBe('returns-your-right-to-cancel');
  });
});
