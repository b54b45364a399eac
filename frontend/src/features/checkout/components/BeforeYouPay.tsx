// What the Consumer Contracts Regulations 2013 ask a shopper be shown before paying: who the trader is and
// their geographic address, the total with delivery and the VAT it includes, when it will arrive, and the
// terms and the right to cancel with who pays to send drinks back. Shown just above the Pay button.
import { paths } from '../../../app/paths';
import { formatMoney } from '../../../lib/format';
import type { SiteInfo } from '../../../types/catalog';
import { companyLine } from '../../../lib/trader';
import styles from './Checkout.module.css';
import { Link } from '../../../components/Link';

/** Who pays to send drinks back after a cancellation: the terms' and the confirmation's words. */
export const RETURN_COSTS =
  'If you cancel, you pay the cost of sending the drinks back, unless they are faulty or not as described: then we pay it.';

/** The standard policies' fixed ids (the content function always serves them). */
export const TERMS_POLICY = 'terms';
export const RETURNS_POLICY = 'returns';
export const CANCELLATION_FORM_ANCHOR = 'model-cancellation-form';

interface BeforeYouPayProps {
  info: SiteInfo | null;
  /** The server's figures; null while they load. */
  total: number | null;
  vat: number | null;
  vatRate: number;
}

const money = (pounds: number | null) => (pounds === null ? '…' : formatMoney(pounds));

export function BeforeYouPay({ info, total, vat, vatRate }: BeforeYouPayProps) {
  return (
    <section className={styles.preContract} aria-labelledby="before-you-pay" data-testid="before-you-pay">
      <h2 id="before-you-pay">Before you pay</h2>
      <p>
        You are buying from <strong>{info?.name || 'us'}</strong>
        {info?.address ? `, ${info.address}` : ''}
        {info?.email ? ` (${info.email})` : ''}
        {companyLine(info) ? `, the trading name of ${companyLine(info)}` : ''}.
      </p>
      <p>
        Total to pay: <strong>{money(total)}</strong> including delivery, of which VAT at {vatRate}%:{' '}
        <span data-testid="checkout-vat">{money(vat)}</span>.
      </p>
      <p>Delivery usually takes {info?.deliveryEstimate || '2 to 4 working days'} within the UK.</p>
      <p>
        By paying you accept our <Link to={paths.policy.to(TERMS_POLICY)}>terms of sale</Link>. You may cancel within 14 days of
        receiving your drinks: see <Link to={`${paths.policy.to(RETURNS_POLICY)}#${CANCELLATION_FORM_ANCHOR}`}>your right to cancel</Link>.{' '}
        <span data-testid="return-costs">{RETURN_COSTS}</span>
      </p>
    </section>
  );
}
