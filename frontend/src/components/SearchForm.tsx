// A drinks search box that goes to /{product}/uk?search=...
import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '../app/paths';
import styles from './SearchForm.module.css';

export function SearchForm({ initial = '', label = 'Search drinks' }: { initial?: string; label?: string }) {
  const navigate = useNavigate();
  const id = useId();
  const [text, setText] = useState(initial);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const query = text.trim();
    if (query) navigate(paths.search.to(query));
  }

  return (
    <form role="search" className={styles.form} onSubmit={onSubmit}>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <input
        id={id}
        className={styles.input}
        type="search"
        name="search"
        placeholder="Mango, cola, 330ml…"
        value={text}
        onChange={(event) => setText(event.target.value)}
        autoComplete="off"
        enterKeyHint="search"
      />
      <button type="submit" className={styles.submit}>
        Search
      </button>
    </form>
  );
}
