// Decorative line icons, each drawn from one SVG path in the current text colour.
export function Icon({ d, size = 24, width = 2.2 }: { d: string; size?: number; width?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={d} fill="none" stroke="currentColor" strokeWidth={width} strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

// One export per icon, so a page's script carries only the icons it draws. (The header draws its own icons
// in CSS.)
export const closeIcon = 'M6 6l12 12M18 6 6 18';
