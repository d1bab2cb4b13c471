// The box that asks which route a capture takes when several end on the square clicked.
import { $, WDL, moveButton } from './dom.js';

export function closeChooser() {
  $('route-chooser').hidden = true;
  $('route-list').replaceChildren();
}

// One button per move of `list`; pick(move) is called with the one chosen.
export function openChooser(list, pick) {
  const box = $('route-list');
  box.replaceChildren();
  for (const m of list) {
    box.appendChild(
      moveButton(`${m.path.join('x')} (${WDL[m.wdl] || m.wdl})`, () => pick(m), { 'data-route': m.move }),
    );
  }
  $('route-chooser').hidden = false;
}
