// The dashboard's revenue-by-day chart: Chart.js (canvas), only the parts a bar chart needs, in a chunk of its own
// that loads with the dashboard. The canvas is an image with a spoken summary; the figures are in a table beside it.
import { useEffect, useRef } from 'react';
import { BarController, BarElement, CategoryScale, Chart, LinearScale, Tooltip } from 'chart.js';
import type { RevenueDayJson } from '@shop/contracts';
import { formatDay } from '@/lib/dates';
import { formatPrice, formatWholePounds } from '@/lib/money';
import { revenueSummary } from './revenue';

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip);

const BRAND = '#013369';

export default function RevenueChart({ days }: { days: RevenueDayJson[] }) {
  const canvas = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, {
      type: 'bar',
      data: {
        labels: days.map((d) => formatDay(d.date)),
        datasets: [
          {
            label: 'Revenue',
            data: days.map((d) => d.revenue),
            backgroundColor: BRAND,
            hoverBackgroundColor: '#d50a0a',
            borderRadius: 3,
            maxBarThickness: 28,
          },
        ],
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        plugins: {
          legend: { display: false },
          tooltip: {
            callbacks: {
              title: (items) => formatDay(days[items[0].dataIndex].date, true),
              label: (item) => {
                const day = days[item.dataIndex];
                return `${formatPrice(day.revenue)} from ${day.orders} ${day.orders === 1 ? 'order' : 'orders'}`;
              },
            },
          },
        },
        scales: {
          x: { grid: { display: false }, ticks: { maxRotation: 0, autoSkipPadding: 12, color: '#374151' } },
          y: {
            beginAtZero: true,
            grace: '5%',
            ticks: { callback: (value) => formatWholePounds(Number(value)), color: '#374151', maxTicksLimit: 6 },
          },
        },
      },
    });
    return () => chart.destroy();
  }, [days]);

  return (
    <div className="relative h-64 w-full md:h-72">
      <canvas ref={canvas} role="img" aria-label={revenueSummary(days)} data-testid="revenue-chart">
        {revenueSummary(days)}
      </canvas>
    </div>
  );
}
