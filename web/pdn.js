// The best line (PV) as a PDN game: the position as a [FEN] tag, the moves numbered from it, and
// the result the line ends in. The copy button and the download link of the page give this text.

const GAME_TYPE = { international: '20', turkish: '30' };

// pv: the API's move texts from the position `fen` (side to move fen[0]); wdl: its value for
// that side. A line that wins ends the game: its result is the winner's.
export function pvPdn(variant, fen, pv, wdl) {
  const white = fen.trim()[0].toUpperCase() === 'W';
  const result =
    wdl === 'draw' ? '1-1' : wdl !== 'win' && wdl !== 'loss' ? '*' : (wdl === 'win') === white ? '2-0' : '0-2';
  const tags = [
    ['Event', 'dtb best line'],
    ['GameType', GAME_TYPE[variant] || '20'],
    ['SetUp', '1'],
    ['FEN', fen],
    ['Result', result],
  ];
  const words = [];
  pv.forEach((move, i) => {
    const ply = i + (white ? 0 : 1);
    if (ply % 2 === 0) words.push(`${ply / 2 + 1}.`);
    else if (i === 0) words.push(`${(ply + 1) / 2}...`);
    words.push(move);
  });
  words.push(result);
  // Movetext wrapped at 79 characters, as PDN files usually are.
  const lines = [];
  let line = '';
  for (const w of words) {
    if (line && line.length + 1 + w.length > 79) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  lines.push(line);
  return `${tags.map(([k, v]) => `[${k} "${v}"]`).join('\n')}\n\n${lines.join('\n')}\n`;
}

// A file name for the line's PDN: dtb-<variant>-<FEN with its separators as dashes>.pdn.
export function pvFileName(variant, fen) {
  return `dtb-${variant}-${fen.replace(/[^A-Za-z0-9]+/g, '-').replace(/-$/, '')}.pdn`;
}
