// Renders its children once the spot is near the viewport: below-the-fold parts (the footer) then load
// their script only when the shopper scrolls towards them.
import { useEffect, useRef, useState, type ReactNode } from 'react';

export function WhenNear({ children, margin = '600px' }: { children: ReactNode; margin?: string }) {
  const spot = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);

  useEffect(() => {
    const element = spot.current;
    if (near || !element) return undefined;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) setNear(true);
    }, { rootMargin: margin });
    observer.observe(element);
    return () => observer.disconnect();
  }, [near, margin]);

  return near ? children : <div ref={spot} aria-hidden="true" style={{ minHeight: 1 }} />;
}
