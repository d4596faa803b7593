import type { Brand } from '@shop/contracts';

/** Team colours and marks used to draw the seed art (the eight brands of docs/product.md#business-constants). */
export interface Team {
  /** Wordmark on the art, e.g. CARDINALS */
  wordmark: string;
  abbr: string;
  city: string;
  primary: string;
  secondary: string;
  accent: string;
}

export const TEAMS: Record<Brand, Team> = {
  'Arizona Cardinals': {
    wordmark: 'CARDINALS',
    abbr: 'ARI',
    city: 'ARIZONA',
    primary: '#97233F',
    secondary: '#000000',
    accent: '#FFB612',
  },
  'Atlanta Falcons': {
    wordmark: 'FALCONS',
    abbr: 'ATL',
    city: 'ATLANTA',
    primary: '#A71930',
    secondary: '#000000',
    accent: '#A5ACAF',
  },
  'Baltimore Ravens': {
    wordmark: 'RAVENS',
    abbr: 'BAL',
    city: 'BALTIMORE',
    primary: '#241773',
    secondary: '#000000',
    accent: '#9E7C0C',
  },
  'Green Bay Packers': {
    wordmark: 'PACKERS',
    abbr: 'GB',
    city: 'GREEN BAY',
    primary: '#203731',
    secondary: '#FFB612',
    accent: '#FFFFFF',
  },
  'New England Patriots': {
    wordmark: 'PATRIOTS',
    abbr: 'NE',
    city: 'NEW ENGLAND',
    primary: '#002244',
    secondary: '#C60C30',
    accent: '#B0B7BC',
  },
  'San Francisco 49ers': {
    wordmark: '49ERS',
    abbr: 'SF',
    city: 'SAN FRANCISCO',
    primary: '#AA0000',
    secondary: '#B3995D',
    accent: '#FFFFFF',
  },
  'Pittsburgh Steelers': {
    wordmark: 'STEELERS',
    abbr: 'PIT',
    city: 'PITTSBURGH',
    primary: '#101820',
    secondary: '#FFB612',
    accent: '#A5ACAF',
  },
  'Philadelphia Eagles': {
    wordmark: 'EAGLES',
    abbr: 'PHI',
    city: 'PHILADELPHIA',
    primary: '#004C54',
    secondary: '#A5ACAF',
    accent: '#000000',
  },
};
