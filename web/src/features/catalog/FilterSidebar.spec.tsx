import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FilterSidebar } from './FilterSidebar';
import { DEFAULT_FILTERS } from './filters';

const checkbox = (value: string) =>
  screen.getByTestId('filters').querySelector<HTMLInputElement>(`input[type="checkbox"][value="${value}"]`)!;

describe('filter sidebar', () => {
  it('shows a choice at once, before the page has rendered the filters it leads to', async () => {
    const onChange = jest.fn(); // the page's answer (the URL, then its filters) has not come yet
    render(<FilterSidebar filters={DEFAULT_FILTERS} onChange={onChange} />);
    const user = userEvent.setup();

    await user.click(checkbox('M'));
    expect(checkbox('M')).toBeChecked();
    expect(onChange).toHaveBeenLastCalledWith({ ...DEFAULT_FILTERS, size: ['M'] }, { replace: false });

    // a second choice adds to the first, as the URL will
    await user.click(checkbox('Cotton'));
    expect(checkbox('M')).toBeChecked();
    expect(onChange).toHaveBeenLastCalledWith(
      { ...DEFAULT_FILTERS, size: ['M'], material: ['Cotton'] },
      { replace: false },
    );
  });

  it("shows the page's filters once they change (Back, a link)", async () => {
    const { rerender } = render(<FilterSidebar filters={DEFAULT_FILTERS} onChange={jest.fn()} />);
    await userEvent.setup().click(checkbox('M'));
    rerender(<FilterSidebar filters={{ ...DEFAULT_FILTERS, size: ['L'] }} onChange={jest.fn()} />);
    expect(checkbox('L')).toBeChecked();
    expect(checkbox('M')).not.toBeChecked();
  });
});
