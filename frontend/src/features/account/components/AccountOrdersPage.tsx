// /account/order: the order history arrives with the orders issue; until then, its empty state.
import { Link } from 'react-router';
import { paths } from '../../../app/paths';
import { EmptyView } from '../../../components/StatusView';
import ui from '../../../components/ui.module.css';
import { usePageMeta } from '../../../lib/meta';

export default function AccountOrdersPage() {
  usePageMeta('Your orders', 'Every order you have placed with us and what you have spent.');
  return (
    <section aria-labelledby="orders-title">
      <h2 id="orders-title" className={ui.sectionTitle}>
        Your orders
      </h2>
      <EmptyView title="No orders yet">
        <p>When you order drinks, they show here with their status.</p>
        <Link className={ui.primary} to={paths.shop.to()}>
          Shop drinks
        </Link>
      </EmptyView>
    </section>
  );
}
