import type { SortOption } from '@shop/contracts';

const LABELS: Array<[SortOption | '', string]> = [
  ['', 'Default'],
  ['priceAsc', 'Price: Low to High'],
  ['priceDesc', 'Price: High to Low'],
  ['popularity', 'Popularity'],
];

/** The sort options: default, priceAsc, priceDesc, popularity (docs/product.md#business-constants). */
export function SortOptions({ value, onChange }: { value: string; onChange: (value: SortOption | '') => void }) {
  return (
    <div className="flex items-center gap-2">
      <label htmlFor="sort" className="text-sm text-gray-700">
        Sort by
      </label>
      <select
        id="sort"
        value={value}
        onChange={(e) => onChange(e.target.value as SortOption | '')}
        className="rounded-md border border-gray-300 bg-white p-2 text-sm"
      >
        {LABELS.map(([option, label]) => (
          <option key={option || 'default'} value={option}>
            {label}
          </option>
        ))}
      </select>
    </div>
  );
}
