/** How each colour name (docs/product.md#business-constants) looks as a swatch. */
export const SWATCHES: Record<string, string> = {
  Red: '#c8102e',
  Blue: '#1d4ed8',
  Black: '#111111',
  Green: '#15803d',
  Yellow: '#facc15',
  Gray: '#9ca3af',
  White: '#ffffff',
  Pink: '#f472b6',
  Beige: '#e7dcc5',
  Navy: '#0b1f4b',
  Purple: '#5b21b6',
  Brown: '#7c4a21',
};

export const swatch = (name: string) => SWATCHES[name] ?? name.toLowerCase();
