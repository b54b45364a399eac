// The admin area's document titles: the screen, then where it sits ("Order PD-10001 · Orders"), then
// "Admin" and the shop's name, so a tab or the history list says which admin screen it is.
import { useEffect } from 'react';
import { SITE_NAME } from '../lib/brand';

export function adminTitle(...parts: string[]): string {
  return [...parts.filter(Boolean), 'Admin', SITE_NAME].join(' · ');
}

/** Sets the title while the screen is shown. */
export function useAdminTitle(...parts: string[]): void {
  const title = adminTitle(...parts);
  useEffect(() => {
    document.title = title;
  }, [title]);
}
