// /{product}/review, 'Customer Reviews': the average out of 5, 'Based on N reviews', a bar per star count,
// 'Write a review' (the form opens below it; `?product=` preselects the drink), the reviews newest first
// with 'View more comments' while there are more, and the FAQ. Two lines say how reviews are checked. A
// delivered e-mail's link (`?write=token`) opens the form filled in for the drink it names. Structured
// search data: the organisation,
// the shop as a business with its opening hours and average rating, breadcrumbs, the FAQ and the reviews.
import { useEffect, useMemo, useState } from 'react';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { paths } from '../../../app/paths';
import { JsonLd } from '../../../components/JsonLd';
import { PageHeading } from '../../../components/PageHeading';
import { EmptyView, ErrorView, LoadingView } from '../../../components/StatusView';
import ui from '../../../components/ui.module.css';
import { SITE_NAME, usePageMeta } from '../../../lib/meta';
import { aggregateRating, breadcrumbs, faqPage, graph, localBusiness, organization, review } from '../../../lib/structuredData';
import { useQuery } from '../../../lib/useQuery';
import { selectSiteInfo } from '../../../state/site/siteSlice';
import { basedOn } from '../display';
import { reviewFaq } from '../faq';
import {
  fetchInvitation,
  fetchReviewsPage,
  fetchReviewSummary,
  reviewFormReset,
  reviewSummaryReloadRequested,
  selectReviewList,
  selectReviewSummary,
  type ReviewInvitation,
} from '../reviewsSlice';
import { RatingOverview } from './RatingOverview';
import { ReviewForm } from './ReviewForm';
import { ReviewList } from './ReviewList';
import styles from './Reviews.module.css';
import { LoadMore } from '../../../components/LoadMore';

const TITLE = 'Customer Reviews';
const FORM_ID = 'write-review';

/** How reviews are checked, in two lines under the summary. */
export const HOW_CHECKED = [
  'Every review shows as it was written; we hide only those that break the law or our rules, and you can report one.',
  '“Verified” marks a review proven to come from a buyer of the drink: written signed in, from the link in the delivery e-mail, or confirmed from the buyer’s mailbox.',
];

/** A delivered e-mail's link: the form it fills in, or why it cannot. */
function useInvitation(token: string) {
  const dispatch = useAppDispatch();
  const [invitation, setInvitation] = useState<(ReviewInvitation & { token: string }) | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  useEffect(() => {
    if (!token) return;
    let current = true;
    void dispatch(fetchInvitation(token)).then((answer) => {
      if (!current) return;
      if (typeof answer === 'string') setRefusal(answer);
      else setInvitation({ ...answer, token });
    });
    return () => {
      current = false;
    };
  }, [dispatch, token]);
  return { invitation, refusal };
}

export default function ReviewsPage() {
  const dispatch = useAppDispatch();
  const summary = useAppSelector(selectReviewSummary);
  const list = useAppSelector(selectReviewList);
  const heldInfo = useAppSelector(selectSiteInfo);
  const info = summary.connect ?? heldInfo;
  const shopName = info?.name || SITE_NAME;
  const query = useQuery();
  const product = query.get('product') ?? '';
  const { invitation, refusal } = useInvitation(query.get('write') ?? '');
  const [formOpen, setFormOpen] = useState(false);
  useEffect(() => {
    if (invitation) setFormOpen(true);
  }, [invitation]);

  usePageMeta(
    TITLE,
    summary.ratings && summary.count > 0
      ? `${shopName} soft drinks are rated ${summary.ratings.avgRating.toFixed(1)} out of 5 by our customers. ${basedOn(summary.count)}: read them, or write your own.`
      : `What our customers say about ${shopName} soft drinks: read their reviews, or write your own.`,
  );

  // Every visit fetches afresh; the reload flag (a retry, a stored review) fetches again.
  useEffect(() => {
    void dispatch(fetchReviewSummary());
    return () => void dispatch(reviewFormReset());
  }, [dispatch]);
  useEffect(() => {
    if (summary.reload) void dispatch(fetchReviewSummary());
  }, [dispatch, summary.reload]);

  const faq = useMemo(() => reviewFaq(shopName), [shopName]);
  const data = useMemo(() => {
    const origin = window.location.origin;
    const store = localBusiness(info, origin);
    const average = summary.ratings ? aggregateRating(summary.ratings.avgRating, summary.count) : undefined;
    return graph(
      organization(info, origin),
      average ? { ...store, aggregateRating: average } : store,
      breadcrumbs(
        [
          { name: 'Home', path: paths.home.to() },
          { name: TITLE, path: paths.reviews.to() },
        ],
        origin,
      ),
      faqPage(faq),
      ...list.products.map((entry) => review(entry, origin)),
    );
  }, [info, summary.ratings, summary.count, faq, list.products]);

  const loadingMore = list.status === 'loading' && list.products.length > 0;

  return (
    <div className={ui.container}>
      <JsonLd data={data} />
      <PageHeading
        title={TITLE}
        lead="What our customers say about our drinks."
        crumbs={[{ label: 'Home', to: paths.home.to() }, { label: TITLE }]}
      />

      <section className={styles.summary} aria-label="Rating summary">
        {summary.status === 'failed' ? (
          <ErrorView
            title="We could not load the reviews"
            message={summary.error ?? 'Try later'}
            onRetry={() => dispatch(reviewSummaryReloadRequested())}
          />
        ) : summary.ratings ? (
          <RatingOverview ratings={summary.ratings} count={summary.count} />
        ) : (
          <LoadingView label="Loading the ratings" cards={1} />
        )}
        <div className={styles.write}>
          <button
            type="button"
            className={ui.accent}
            aria-expanded={formOpen}
            aria-controls={FORM_ID}
            onClick={() => setFormOpen((open) => !open)}
          >
            Write a review
          </button>
          <p className={styles.note} data-testid="upload-note">
            Photo uploads are temporarily disabled: you can still rate a drink and leave a comment.
          </p>
        </div>
      </section>
      <div className={styles.note} data-testid="how-checked">
        {HOW_CHECKED.map((line) => (
          <p key={line}>{line}</p>
        ))}
      </div>
      {refusal && (
        <p className={styles.note} role="alert">
          {refusal}: you can still write a review with your e-mail below.
        </p>
      )}

      <div id={FORM_ID} hidden={!formOpen}>
        {formOpen && (invitation ? <ReviewForm key={invitation.token} invitation={invitation} /> : <ReviewForm initialProduct={product} />)}
      </div>

      <section className={styles.reviews} aria-labelledby="reviews-title">
        <h2 id="reviews-title" className={ui.sectionTitle}>
          Reviews
        </h2>
        {summary.status === 'failed' && list.products.length === 0 ? (
          <p className={styles.note}>The reviews will show here once they load.</p>
        ) : list.status === 'idle' || (summary.status === 'loading' && list.products.length === 0) ? (
          <LoadingView label="Loading the reviews" cards={3} />
        ) : list.products.length === 0 && list.status !== 'failed' ? (
          <EmptyView title="No reviews yet">
            <p>Tried one of our drinks? Be the first to tell everyone what you thought.</p>
          </EmptyView>
        ) : (
          <>
            <ReviewList reviews={list.products} />
            {list.status === 'failed' && (
              <ErrorView
                title="We could not load more reviews"
                message={list.error ?? 'Try later'}
                onRetry={() => list.nextPage !== null && void dispatch(fetchReviewsPage({ page: list.nextPage, cursor: list.cursor }))}
              />
            )}
            <LoadMore nextPage={list.nextPage} loading={loadingMore} failed={list.status === 'failed'} label="View more comments" onLoad={(page) => void dispatch(fetchReviewsPage({ page, cursor: list.cursor }))} />
          </>
        )}
      </section>

      <section className={styles.faq} aria-labelledby="reviews-faq">
        <h2 id="reviews-faq" className={ui.sectionTitle}>
          Questions about reviews
        </h2>
        {faq.map((item) => (
          <details key={item.question} className={styles.question}>
            <summary>{item.question}</summary>
            <p>{item.answer}</p>
          </details>
        ))}
      </section>
    </div>
  );
}
