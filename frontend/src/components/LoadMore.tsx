// The button under a paged list: shown while there is a next page (or one is on its way) and the list has
// not failed; it asks for the next page once, and not again while that page loads.
import ui from './ui.module.css';

interface LoadMoreProps {
  nextPage: number | null;
  /** A later page is loading (the list already shows the earlier ones). */
  loading: boolean;
  failed: boolean;
  label: string;
  onLoad: (page: number) => void;
}

export function LoadMore({ nextPage, loading, failed, label, onLoad }: LoadMoreProps) {
  if ((nextPage === null && !loading) || failed) return null;
  return (
    <div className={ui.loadMore}>
      <button
        type="button"
        className={ui.primary}
        aria-disabled={loading}
        onClick={() => {
          if (!loading && nextPage !== null) onLoad(nextPage);
        }}
      >
        {loading ? 'Loading…' : label}
      </button>
    </div>
  );
}
