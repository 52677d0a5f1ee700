import type { ReactNode } from 'react';

export type StrokeIconProps = {
  /** Width and height in pixels. */
  size?: number;
  /** The icon's paths, drawn on a 24×24 grid. */
  children: ReactNode;
};

/** A small line icon in the text colour, hidden from assistive technology (its button is named). */
export function StrokeIcon({ size = 14, children }: StrokeIconProps) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      {children}
    </svg>
  );
}
