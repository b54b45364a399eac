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

describe('Paragraphs links', () => {
  it('makes [words](/path) a link in the app and [words](https://…) a link out, and leaves other brackets alone', async () => {
    const { MemoryRouter } = await import('react-router');
    render(
      <MemoryRouter>
        <Paragraphs text={'Open [your profile](/account/profile) or ask [the ICO](https://ico.org.uk/make-a-complaint/). [not a link](//evil.example) and [plain].'} />
      </MemoryRouter>,
    );
    expect(screen.getByRole('link', { name: 'your profile' })).toHaveAttribute('href', '/account/profile');
    expect(screen.getByRole('link', { name: 'the ICO' })).toHaveAttribute('href', 'https://ico.org.uk/make-a-complaint/');
    expect(screen.queryByRole('link', { name: 'not a link' })).toBeNull();
    expect(screen.getByText(/\[not a link\]\(\/\/evil\.example\) and \[plain\]\./)).toBeInTheDocument();
  });
});
