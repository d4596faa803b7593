// Small inline icons (no icon font, no library: a few hundred bytes). Decorative: hidden from assistive tech,
// the button or link around them carries the label.
import type { SVGProps } from 'react';

type IconProps = SVGProps<SVGSVGElement>;

function Outline({ children, ...props }: IconProps) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="24"
      height="24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      {children}
    </svg>
  );
}

export const IconUser = (p: IconProps) => (
  <Outline {...p}>
    <circle cx="12" cy="8" r="4" />
    <path d="M4 21a8 8 0 0 1 16 0" />
  </Outline>
);
export const IconHeart = (p: IconProps) => (
  <Outline {...p}>
    <path d="M12 20 4 12a4.5 4.5 0 0 1 8-5 4.5 4.5 0 0 1 8 5z" />
  </Outline>
);

export const IconBag = (p: IconProps) => (
  <Outline {...p}>
    <path d="M6 7h12l1 14H5L6 7Z" />
    <path d="M9 7V6a3 3 0 0 1 6 0v1" />
  </Outline>
);
export const IconSearch = (p: IconProps) => (
  <Outline {...p}>
    <circle cx="11" cy="11" r="7" />
    <path d="m20 20-3.5-3.5" />
  </Outline>
);
export const IconClose = (p: IconProps) => (
  <Outline {...p}>
    <path d="M6 6l12 12M18 6 6 18" />
  </Outline>
);
export const IconMenu = (p: IconProps) => (
  <Outline {...p}>
    <path d="M4 6h16M4 12h16M4 18h16" />
  </Outline>
);
export const IconTrash = (p: IconProps) => (
  <Outline {...p}>
    <path d="M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3" />
  </Outline>
);
export const IconChevronLeft = (p: IconProps) => (
  <Outline {...p}>
    <path d="m15 5-7 7 7 7" />
  </Outline>
);
export const IconChevronRight = (p: IconProps) => (
  <Outline {...p}>
    <path d="m9 5 7 7-7 7" />
  </Outline>
);
export const IconFilter = (p: IconProps) => (
  <Outline {...p}>
    <path d="M4 5h16l-6 8v6l-4-2v-4L4 5Z" />
  </Outline>
);
export const IconPhone = (p: IconProps) => (
  <Outline {...p}>
    <path d="M5 4h4l2 5-2.5 1.5a11 11 0 0 0 5 5L15 13l5 2v4a2 2 0 0 1-2 2A16 16 0 0 1 3 6a2 2 0 0 1 2-2Z" />
  </Outline>
);
export const IconTruck = (p: IconProps) => (
  <Outline {...p}>
    <path d="M3 6h11v10H3zM14 10h4l3 3v3h-7" />
    <circle cx="7" cy="18" r="2" />
    <circle cx="17" cy="18" r="2" />
  </Outline>
);
export const IconReturn = (p: IconProps) => (
  <Outline {...p}>
    <path d="M9 14 4 9l5-5" />
    <path d="M4 9h10a6 6 0 0 1 0 12h-3" />
  </Outline>
);
export const IconLock = (p: IconProps) => (
  <Outline {...p}>
    <rect x="5" y="11" width="14" height="10" rx="2" />
    <path d="M8 11V8a4 4 0 0 1 8 0v3" />
  </Outline>
);

function Solid({ children, ...props }: IconProps) {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" fill="currentColor" aria-hidden="true" focusable="false" {...props}>
      {children}
    </svg>
  );
}

export const IconFacebook = (p: IconProps) => (
  <Solid {...p}>
    <path d="M14 8h3V4h-3c-2.8 0-4.5 1.8-4.5 4.6V11H7v4h2.5v9h4v-9h3l.5-4h-3.5V8.8c0-.5.3-.8.5-.8Z" />
  </Solid>
);
export const IconInstagram = (p: IconProps) => (
  <Solid {...p}>
    <path d="M12 7.3A4.7 4.7 0 1 0 12 16.7 4.7 4.7 0 0 0 12 7.3Zm0 7.7a3 3 0 1 1 0-6 3 3 0 0 1 0 6Zm4.9-8.9a1.1 1.1 0 1 0 0 2.2 1.1 1.1 0 0 0 0-2.2ZM12 2.5c-2.6 0-2.9 0-3.9.1-3.5.2-5.4 2.1-5.5 5.5-.1 1-.1 1.3-.1 3.9s0 2.9.1 3.9c.2 3.5 2.1 5.4 5.5 5.5 1 .1 1.3.1 3.9.1s2.9 0 3.9-.1c3.5-.2 5.4-2.1 5.5-5.5.1-1 .1-1.3.1-3.9s0-2.9-.1-3.9c-.2-3.4-2.1-5.4-5.5-5.5-1-.1-1.3-.1-3.9-.1Zm0 1.7c2.5 0 2.8 0 3.8.1 2.5.1 3.7 1.3 3.8 3.8.1 1 .1 1.3.1 3.8s0 2.8-.1 3.8c-.1 2.5-1.3 3.7-3.8 3.8-1 .1-1.3.1-3.8.1s-2.8 0-3.8-.1c-2.5-.1-3.7-1.3-3.8-3.8-.1-1-.1-1.3-.1-3.8s0-2.8.1-3.8C4.3 5.7 5.5 4.4 8 4.3c1-.1 1.3-.1 4-.1Z" />
  </Solid>
);
export const IconX = (p: IconProps) => (
  <Solid {...p}>
    <path d="M17.8 3h3.1l-6.8 7.7L22 21h-6.2l-4.9-6.4L5.3 21H2.2l7.2-8.3L1.8 3h6.4l4.4 5.8L17.8 3Zm-1.1 16.2h1.7L7.4 4.7H5.6l11.1 14.5Z" />
  </Solid>
);
