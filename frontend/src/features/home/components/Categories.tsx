// The home page's 'Shop by category' cards, each linking to the shop filtered by its category.
import { paths } from '../../../app/paths';
import { DrinkImage } from '../../../components/DrinkImage';
import ui from '../../../components/ui.module.css';
import { truncate } from '../../../lib/format';
import type { Category } from '../../../types/catalog';
import home from './HomePage.module.css';
import styles from './Categories.module.css';
import { Link } from '../../../components/Link';

export default function Categories({ categories }: { categories: Category[] }) {
  return (
    <section className={home.section} aria-labelledby="categories-title">
      <h2 id="categories-title" className={ui.sectionTitle}>
        Shop by category
      </h2>
      <ul className={styles.categories}>
        {categories.map((category) => (
          <li key={category._id}>
            <Link className={styles.category} to={paths.shop.to(category._id)}>
              {category.image[0] && (
                <DrinkImage className={styles.categoryImage} name={category.image[0]} alt="" width={64} height={64} />
              )}
              <span className={styles.categoryName}>{truncate(category.name)}</span>
              {category.des && <span className={styles.categoryDes}>{category.des}</span>}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
