// The product page (/{product}/{id}): images, description, pack label, price and discounted price, stock,
// the purchase controls and, below the fold, the drink's reviews, both handed in by the app (the basket and
// the reviews are other features). Reads ?qty= from the query string to preset the quantity.
import { useEffect, useState, type ReactNode } from 'react';
import { useParams } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { paths } from '../../../app/paths';
import { DrinkImage } from '../../../components/DrinkImage';
import { JsonLd } from '../../../components/JsonLd';
import { PageHeading } from '../../../components/PageHeading';
import { Price } from '../../../components/Price';
import { NotFoundView } from '../../../components/NotFoundView';
import { StatusView } from '../../../components/StatusView';
import ui from '../../../components/ui.module.css';
import { truncate } from '../../../lib/format';
import { isPrerendering } from '../../../lib/prerendering';
import { usePageMeta } from '../../../lib/meta';
import { graph, product as productThing } from '../../../lib/structuredData';
import { selectHeldDeliveryTerms } from '../../../lib/delivery';
import { useQuery } from '../../../lib/useQuery';
import type { Product } from '../../../types/catalog';
import { caffeineWarning, statementsAt } from '../../../lib/food';
import { fetchProduct, productReloadRequested, selectProductState } from '../productSlice';
import { AgeRestriction } from './AgeRestriction';
import { BackInStock } from './BackInStock';
import { FoodInformation, type Producer } from './FoodInformation';
import styles from './ProductPage.module.css';
import { Link } from '../../../components/Link';

/** Few enough left to say so. */
const LOW_STOCK = 10;

export interface PurchaseSlotProps {
  product: Product;
  initialQty: number;
}

/** `?qty=3` presets the quantity; anything else means 1. */
export function qtyFromQuery(value: string | null): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

function Gallery({ product }: { product: Product }) {
  const [selected, setSelected] = useState(0);
  const images = product.image;
  const current = images[selected] ?? images[0];
  return (
    <div className={styles.gallery}>
      <div className={styles.stage}>
        <DrinkImage className={styles.mainImage} name={current} alt={product.name} width={480} height={600} eager />
      </div>
      {images.length > 1 && (
        <ul className={styles.thumbs} aria-label="More pictures">
          {images.map((name, index) => (
            <li key={name}>
              <button
                type="button"
                className={styles.thumb}
                aria-pressed={index === selected}
                aria-label={`Picture ${index + 1} of ${images.length}`}
                onClick={() => setSelected(index)}
              >
                <DrinkImage className={styles.thumbImage} name={name} alt="" width={72} height={90} />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Stock({ units }: { units: number }) {
  // Not in the build's copy of the page (lib/prerendering.ts): its line waits for the live stock.
  if (isPrerendering()) return <p className={styles.stock} data-pending="stock">&nbsp;</p>;
  if (units <= 0) return <p className={styles.stockLow}>Sold out for now</p>;
  if (units <= LOW_STOCK) return <p className={styles.stockLow}>Only {units} left</p>;
  return <p className={styles.stock}>In stock</p>;
}

interface ProductPageProps {
  purchase: (props: PurchaseSlotProps) => ReactNode;
  /** What shows under the drink (its reviews); loaded by the app as the shopper scrolls near it. */
  below?: (product: Product) => ReactNode;
  /** Who makes the drinks (the site info's name and address), for the food information. */
  producer?: Producer | null;
  /** The site info's age for age-restricted drinks: null when the shop checks none, undefined until known. */
  shopAge?: number | null | undefined;
}

export function ProductPage({ purchase, below, producer = null, shopAge }: ProductPageProps) {
  const dispatch = useAppDispatch();
  const { id = '' } = useParams();
  const params = useQuery();
  const { product, status, error, reload, notFound, id: heldId } = useAppSelector(selectProductState);
  const delivery = useAppSelector(selectHeldDeliveryTerms);
  const shown = heldId === id ? product : null;
  const unknown = heldId === id && status === 'failed' && notFound;

  usePageMeta(
    shown ? shown.name : unknown ? 'Drink not found' : 'Drink',
    shown ? `${shown.name} (${shown.qty}). ${shown.des} ${shown.des2}` : 'A drink from our range, delivered across the UK.',
  );

  useEffect(() => {
    if (id && (heldId !== id || status === 'idle' || reload)) void dispatch(fetchProduct(id));
  }, [dispatch, id, heldId, status, reload]);

  if (unknown) {
    return (
      <div className={ui.container} style={{ paddingBlock: 'var(--space-7)' }}>
        <NotFoundView title="Drink not found" message="We have no drink at this address: it may have left our range, or the link may be mistyped.">
          <li>
            <Link className={ui.primary} to={paths.shop.to()}>
              Browse all drinks
            </Link>
          </li>
        </NotFoundView>
      </div>
    );
  }

  return (
    <div className={ui.container}>
      <StatusView
        status={heldId === id ? status : 'idle'}
        error={error}
        onRetry={() => dispatch(productReloadRequested())}
        isEmpty={shown === null}
        loadingLabel="Loading the drink"
        errorTitle="We could not load this drink"
        empty={null}
      >
        {shown && (
          <>
            <PageHeading
              title=""
              crumbs={[
                { label: 'Home', to: paths.home.to() },
                { label: 'Shop', to: paths.shop.to() },
                { label: truncate(shown.name) },
              ]}
            />
            <article className={styles.layout}>
              <Gallery key={shown._id} product={shown} />
              <div className={styles.info}>
                <h1 className={styles.name}>{shown.name}</h1>
                {/* The statements the law puts with the drink's name (Annex III: sweeteners, phenylalanine). */}
                {statementsAt(shown.statements, 'name').length > 0 && (
                  <p className={styles.statements} data-testid="name-statements">
                    {statementsAt(shown.statements, 'name').join('. ')}.
                  </p>
                )}
                <p className={styles.pack}>{shown.qty}</p>
                <Price product={shown} className={styles.price} delivery={delivery} />
                <AgeRestriction product={shown} shopAge={shopAge} />
                {/* The high-caffeine statement where the shopper decides: by the price and the Add button. */}
                {caffeineWarning(shown.caffeineMgPerLitre) && (
                  <p className={styles.warning} role="note">
                    {caffeineWarning(shown.caffeineMgPerLitre)}
                  </p>
                )}
                <Stock units={shown.TheNumber} />
                {shown.TheNumber <= 0 && !isPrerendering() && <BackInStock key={shown._id} product={shown} />}
                {shown.des && <p className={styles.des}>{shown.des}</p>}
                <div className={styles.buy}>{purchase({ product: shown, initialQty: qtyFromQuery(params.get('qty')) })}</div>
                {shown.des2 && (
                  <section className={styles.details} aria-labelledby="details-title">
                    <h2 id="details-title" className={styles.detailsTitle}>
                      About this drink
                    </h2>
                    <p className={styles.des2}>{shown.des2}</p>
                  </section>
                )}
                <FoodInformation product={shown} producer={producer} />
              </div>
            </article>
            {/* Its offer (price, availability) is a live value: the app adds it (lib/prerendering.ts). */}
            {!isPrerendering() && <JsonLd data={graph(productThing(shown, paths.product.to(shown._id), window.location.origin, producer))} />}
            {below?.(shown)}
            <p className={styles.back}>
              <Link to={paths.shop.to()}>← Back to all drinks</Link>
            </p>
          </>
        )}
      </StatusView>
    </div>
  );
}

export default ProductPage;
