// Decorative line icons, each drawn from one SVG path in the current text colour.
export function Icon({ d, size = 24, width = 2.2 }: { d: string; size?: number; width?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={d} fill="none" stroke="currentColor" strokeWidth={width} strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

// One export per icon, so a page's script carries only the icons it draws.
export const searchIcon = 'M10.5 4a6.5 6.5 0 1 0 0 13 6.5 6.5 0 0 0 0-13m5 11.5 5 5';
export const accountIcon = 'M12 4a4 4 0 1 0 0 8 4 4 0 0 0 0-8M4 21c1.2-4 4.3-6 8-6s6.8 2 8 6';
export const basketIcon = 'M3 4h2.2l2.3 11h10.8l2-8H7m2.5 12.5h.01m7 0h.01';
export const menuIcon = 'M4 7h16M4 12h16M4 17h16';
export const closeIcon = 'M6 6l12 12M18 6 6 18';
