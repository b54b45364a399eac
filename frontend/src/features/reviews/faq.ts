// The reviews page's questions and answers: shown on the page and given to search engines as FAQ data, so
// both read the same words.
import type { FaqItem } from '../../lib/structuredData';

export function reviewFaq(shopName: string): FaqItem[] {
  return [
    {
      question: 'Who can write a review?',
      answer: `Anyone who has tried our drinks. Press 'Write a review', choose the drink, give it 1 to 5 stars and tell us what you thought. You do not need an account.`,
    },
    {
      question: 'Is my e-mail address shown with my review?',
      answer: `No. We ask for your e-mail address only so that ${shopName} can contact you about your review; only your name, your stars and your comment are shown.`,
    },
    {
      question: 'How is the average rating worked out?',
      answer: 'It is the average of the stars in every review we have received, to one decimal place, out of 5.',
    },
    {
      question: 'Can I add a photo to my review?',
      answer: 'Not at the moment: photo uploads are temporarily disabled. Your stars and comment are very welcome meanwhile.',
    },
  ];
}
