/**
 * The 32 NFL teams and what fans call them besides their full name: short names, nicknames and the league's
 * abbreviations. A product of a team is found by any of them ("niners", "pats", "bucs"): the search indexes them
 * with the product's team (see product-search.ts). Only single words that mean the team: a phrase ("Black and
 * Gold", "Big Blue") would make every product of the team match "gold" or "blue", and an abbreviation that is a
 * common word ("NO", "WAS") anything written with it.
 */
export interface NflTeam {
  /** As the catalogue's brands spell it. */
  readonly name: string;
  /** The word a team is usually called by, the last of its name ("Packers", "49ers"). */
  readonly nickname: string;
  readonly aliases: readonly string[];
}

const team = (name: string, ...aliases: string[]): NflTeam => ({
  name,
  nickname: name.slice(name.lastIndexOf(' ') + 1),
  aliases,
});

export const NFL_TEAMS: readonly NflTeam[] = [
  team('Arizona Cardinals', 'Cards', 'Zona', 'ARI'),
  team('Atlanta Falcons', 'ATL'),
  team('Baltimore Ravens', 'BAL'),
  team('Buffalo Bills', 'BUF'),
  team('Carolina Panthers'),
  team('Chicago Bears', 'CHI'),
  team('Cincinnati Bengals', 'Cincy', 'CIN'),
  team('Cleveland Browns', 'Dawgs', 'CLE'),
  team('Dallas Cowboys', 'DAL'),
  team('Denver Broncos', 'Broncs'),
  team('Detroit Lions', 'DET'),
  team('Green Bay Packers', 'Pack', 'Cheeseheads', 'GB'),
  team('Houston Texans', 'HOU'),
  team('Indianapolis Colts', 'Indy'),
  team('Jacksonville Jaguars', 'Jags', 'JAX', 'Duval'),
  team('Kansas City Chiefs', 'KC'),
  team('Las Vegas Raiders', 'Oakland', 'LV'),
  team('Los Angeles Chargers', 'Bolts', 'LAC'),
  team('Los Angeles Rams', 'LAR'),
  team('Miami Dolphins', 'Fins', 'Phins', 'MIA'),
  team('Minnesota Vikings', 'Vikes', 'Skol'),
  team('New England Patriots', 'Pats', 'NE'),
  team('New Orleans Saints', 'NOLA'),
  team('New York Giants', 'NYG'),
  team('New York Jets', 'NYJ'),
  team('Philadelphia Eagles', 'Philly', 'PHI'),
  team('Pittsburgh Steelers', 'Yinzers'),
  team('San Francisco 49ers', 'Niners', 'SF'),
  team('Seattle Seahawks', 'Hawks'),
  team('Tampa Bay Buccaneers', 'Bucs', 'TB'),
  team('Tennessee Titans'),
  team('Washington Commanders', 'WSH'),
];

const byWord = new Map<string, NflTeam>();
for (const t of NFL_TEAMS) {
  byWord.set(t.name.toLowerCase(), t);
  byWord.set(t.nickname.toLowerCase(), t);
}

/**
 * The teams a product is of: those whose full name or nickname appears as words in its brand or name
 * ("Green Bay Packers", a "Packers Pom Beanie"), each once.
 */
export function teamsOf(...texts: Array<string | undefined>): NflTeam[] {
  const found = new Set<NflTeam>();
  for (const text of texts) {
    if (!text) continue;
    const lower = text.toLowerCase();
    const full = byWord.get(lower);
    if (full) found.add(full);
    for (const word of lower.split(/[^\p{L}\p{N}]+/u)) {
      const t = byWord.get(word);
      if (t) found.add(t);
    }
  }
  return [...found];
}

/**
 * The team text a product is searched by: its brand, then every other name of its teams, less the words its name
 * already has ("Green Bay Packers Hoodie" adds "Pack Cheeseheads GB"): the name is searched, and weighs more, anyway,
 * and a word in both would only cost the index twice over.
 */
export function teamTextOf(brand: string | undefined, name: string | undefined): string {
  const inName = new Set((name ?? '').toLowerCase().split(/[^\p{L}\p{N}]+/u));
  const words = new Map<string, string>();
  const add = (text: string) =>
    text.split(' ').forEach((w) => w && !inName.has(w.toLowerCase()) && words.set(w.toLowerCase(), w));
  add(brand ?? '');
  for (const t of teamsOf(brand, name)) [t.name, ...t.aliases].forEach(add);
  return [...words.values()].join(' ');
}
