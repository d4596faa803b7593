import { memo, useState } from 'react';
import { BRANDS, CATEGORIES, FILTER_COLORS, FILTER_GENDERS, MATERIALS, PRICE_FILTER_MAX, SIZES } from '@shop/contracts';
import { formatPrice } from '@/lib/money';
import { swatch } from '@/lib/colors';
import { DEFAULT_FILTERS, toggleValue, type Filters, type MultiFilter } from './filters';

interface FilterSidebarProps {
  filters: Filters;
  /** A new set of filters; `replace` for in-between values (the price slider while it moves). */
  onChange: (next: Filters, options?: { replace?: boolean }) => void;
}

function Radios({
  name,
  legend,
  options,
  value,
  onPick,
}: {
  name: string;
  legend: string;
  options: readonly string[];
  value: string;
  onPick: (value: string) => void;
}) {
  return (
    <fieldset className="mb-6">
      <legend className="mb-2 font-medium text-gray-800">{legend}</legend>
      {['', ...options].map((option) => (
        <label key={option || 'all'} className="mb-1 flex items-center gap-2 text-gray-700">
          <input
            type="radio"
            name={name}
            value={option}
            checked={value === option}
            onChange={() => onPick(option)}
            className="h-4 w-4 accent-black"
          />
          {option || 'All'}
        </label>
      ))}
    </fieldset>
  );
}

function Checkboxes({
  legend,
  options,
  values,
  onToggle,
}: {
  legend: string;
  options: readonly string[];
  values: string[];
  onToggle: (value: string) => void;
}) {
  return (
    <fieldset className="mb-6">
      <legend className="mb-2 font-medium text-gray-800">{legend}</legend>
      {options.map((option) => (
        <label key={option} className="mb-1 flex items-center gap-2 text-gray-700">
          <input
            type="checkbox"
            value={option}
            checked={values.includes(option)}
            onChange={() => onToggle(option)}
            className="h-4 w-4 accent-black"
          />
          {option}
        </label>
      ))}
    </fieldset>
  );
}

/**
 * The filters as the shopper last set them. A choice shows at once: the page's own filters follow only once the URL's
 * change has rendered, in a transition (React Router navigates in one), which on a slow phone, or while a long grid is
 * still being added, comes some time after the tap; a controlled input would show the old value until then. When the
 * page's filters change (the URL moved: this choice, Back, a link), they are what is shown.
 */
function useShownFilters(filters: Filters): [Filters, (next: Filters) => void] {
  const [seen, setSeen] = useState(filters);
  const [shown, setShown] = useState(filters);
  if (seen !== filters) {
    setSeen(filters);
    setShown(filters);
  }
  return [seen !== filters ? filters : shown, setShown];
}

/**
 * The collection page's filters (docs/product.md#collection-page): category, gender, colour swatches, size, material,
 * brand, price (max only).
 * Memoised: a few hundred inputs that need not render again when the products they filter arrive.
 */
export const FilterSidebar = memo(function FilterSidebar({ filters: current, onChange }: FilterSidebarProps) {
  const [filters, show] = useShownFilters(current);

  const choose = (next: Filters, replace = false) => {
    show(next);
    onChange(next, { replace });
  };
  const set = <K extends keyof Filters>(key: K, value: Filters[K], replace = false) =>
    choose({ ...filters, [key]: value }, replace);
  const toggle = (key: MultiFilter, value: string) => set(key, toggleValue(filters[key], value));

  return (
    <div className="p-4" data-testid="filters">
      <div className="mb-6 flex items-center justify-between">
        <h2 className="text-xl font-semibold">Filter</h2>
        <button
          type="button"
          onClick={() => choose({ ...DEFAULT_FILTERS, sortBy: filters.sortBy, search: filters.search })}
          className="text-sm text-gray-600 underline hover:text-black"
        >
          Clear all
        </button>
      </div>
      <Radios
        name="category"
        legend="Category"
        options={CATEGORIES}
        value={filters.category}
        onPick={(v) => set('category', v)}
      />
      <Radios
        name="gender"
        legend="Gender"
        options={FILTER_GENDERS}
        value={filters.gender}
        onPick={(v) => set('gender', v)}
      />
      <fieldset className="mb-6">
        <legend className="mb-2 font-medium text-gray-800">Color</legend>
        <div className="flex flex-wrap gap-2">
          {FILTER_COLORS.map((color) => (
            <button
              key={color}
              type="button"
              onClick={() => set('color', filters.color === color ? '' : color)}
              aria-pressed={filters.color === color}
              aria-label={color}
              title={color}
              className={`h-8 w-8 rounded-full border border-gray-300 transition hover:scale-110 ${filters.color === color ? 'ring-2 ring-black ring-offset-2' : ''}`}
              style={{ backgroundColor: swatch(color) }}
            />
          ))}
        </div>
      </fieldset>
      <Checkboxes legend="Size" options={SIZES} values={filters.size} onToggle={(v) => toggle('size', v)} />
      <Checkboxes
        legend="Material"
        options={MATERIALS}
        values={filters.material}
        onToggle={(v) => toggle('material', v)}
      />
      <Checkboxes legend="Brand" options={BRANDS} values={filters.brand} onToggle={(v) => toggle('brand', v)} />
      <div className="mb-8">
        <label htmlFor="price-range" className="mb-2 block font-medium text-gray-800">
          Price Range
        </label>
        <input
          id="price-range"
          type="range"
          min={0}
          max={PRICE_FILTER_MAX}
          step={5}
          value={filters.maxPrice}
          aria-valuetext={`Up to ${formatPrice(filters.maxPrice)}`}
          onChange={(e) => set('maxPrice', Number(e.target.value), true)}
          className="h-2 w-full cursor-pointer accent-black"
        />
        <div className="mt-2 flex justify-between text-sm text-gray-600">
          <span>{formatPrice(filters.minPrice)}</span>
          <span>{formatPrice(filters.maxPrice)}</span>
        </div>
      </div>
    </div>
  );
});
