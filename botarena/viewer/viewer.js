// The botarena replay viewer: draws the frames embedded in the page (botarena.viewer)
// on a canvas, one drawer per game, with controls to play, step and scrub, a speed, a
// chart of the scores per turn and the actions of each turn.  It loads nothing.
"use strict";

(function () {
  const DATA = JSON.parse(document.getElementById("replay-data").textContent);

  // one colour per seat, in every game (paint's order: up to 10 players)
  const PLAYER_COLOURS = ["#e63c3c", "#3c6ee6", "#3cb450", "#f0b428", "#a050c8",
                          "#28bec8", "#f078b4", "#825a32", "#787878", "#143c28"];
  const MAX_BOARD_PIXELS = 720;   // the board's longer side at most
  const MIN_CELL = 3;             // pixels a cell, at least (huge maps overflow instead)
  const MAX_CELL = 44;
  const LETTER_MIN_CELL = 12;     // letters and numbers are drawn in cells this big
  const SPEEDS = [1, 2, 5, 10, 20, 50, 100];  // frames a second
  const DEFAULT_SPEED = 10;
  const CHART_PAD = 8;            // pixels around the chart's lines
  const TINT = 0.62;              // how far a painted square's colour goes towards white
  const OUTLINE = "#0009";
  const TEXT_DARK = "#111";
  const TEXT_LIGHT = "#fff";
  const WATER = "#a8d0ee";         // light: the second player's colour is a deep blue
  const BAR_EMPTY = "#0008";
  const BAR_FULL = "#28c828";

  function playerColour(seat) {
    return PLAYER_COLOURS[seat % PLAYER_COLOURS.length];
  }

  function tint(hex, amount) {
    const channels = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
    const mixed = channels.map((v) => Math.round(v + (255 - v) * amount));
    return `rgb(${mixed.join(",")})`;
  }

  // -- frames: each view key carried over from the previous frame where not written ------
  const frames = [];
  let carried = {};
  for (const frame of DATA.frames) {
    carried = Object.assign({}, carried, frame.view);
    frames.push({turn: frame.turn, over: frame.over, scores: frame.scores,
                 actions: frame.actions, view: carried});
  }
  const seats = DATA.agents.length;

  // -- drawing helpers (cell coordinates: row from the top, column from the left) --------
  // sizes in cells: radii of discs, insets of squares, heights of text, widths of lines
  const SIZE = {piece: 0.38, unit: 0.27, bot: 0.26, stack: 0.4, bomb: 0.3, treasure: 0.28,
                gold: 0.22, hill: 0.42, hillLine: 0.14, letter: 0.6, small: 0.42,
                block: 0.04, item: 0.3, enemy: 0.12, tower: 0.1, visited: 0.4, line: 0.06,
                thick: 0.12};
  const TEXT_NUDGE = 0.04;        // glyphs sit a little high at "middle": moved down

  class Pen {
    constructor(ctx, cell) {
      this.ctx = ctx;
      this.cell = cell;
    }
    square(row, col, colour, inset = 0) {
      const c = this.cell;
      this.ctx.fillStyle = colour;
      this.ctx.fillRect((col + inset) * c, (row + inset) * c, (1 - 2 * inset) * c,
                        (1 - 2 * inset) * c);
    }
    outline(row, col, colour, inset, width = 2) {
      const c = this.cell;
      this.ctx.strokeStyle = colour;
      this.ctx.lineWidth = width;
      this.ctx.strokeRect((col + inset) * c, (row + inset) * c, (1 - 2 * inset) * c,
                          (1 - 2 * inset) * c);
    }
    // a disc centred at (row, col) (fractions of cells allowed)
    discAt(row, col, radius, colour, ring = OUTLINE) {
      const c = this.cell;
      this.ctx.beginPath();
      this.ctx.arc(col * c, row * c, Math.max(radius * c, 1), 0, 2 * Math.PI);
      this.ctx.fillStyle = colour;
      this.ctx.fill();
      if (ring) {
        this.ctx.strokeStyle = ring;
        this.ctx.lineWidth = Math.max(1, SIZE.line * c);
        this.ctx.stroke();
      }
    }
    // text centred at (row, col), only where cells are big enough to read it
    textAt(row, col, text, colour, size = SIZE.letter) {
      if (this.cell < LETTER_MIN_CELL) return;
      const c = this.cell;
      this.ctx.fillStyle = colour;
      this.ctx.font = `bold ${Math.round(size * c)}px sans-serif`;
      this.ctx.textAlign = "center";
      this.ctx.textBaseline = "middle";
      this.ctx.fillText(String(text), col * c, (row + TEXT_NUDGE) * c);
    }
    // the same, centred in the cell (row, col)
    disc(row, col, radius, colour, ring = OUTLINE) {
      this.discAt(row + 0.5, col + 0.5, radius, colour, ring);
    }
    text(row, col, text, colour, size = SIZE.letter) {
      this.textAt(row + 0.5, col + 0.5, text, colour, size);
    }
    ring(row, col, radius, colour, width) {
      const c = this.cell;
      this.ctx.beginPath();
      this.ctx.arc((col + 0.5) * c, (row + 0.5) * c, radius * c, 0, 2 * Math.PI);
      this.ctx.strokeStyle = colour;
      this.ctx.lineWidth = width * c;
      this.ctx.stroke();
    }
    line(r0, c0, r1, c1, colour, width = SIZE.line) {
      const c = this.cell;
      this.ctx.beginPath();
      this.ctx.moveTo(c0 * c, r0 * c);
      this.ctx.lineTo(c1 * c, r1 * c);
      this.ctx.strokeStyle = colour;
      this.ctx.lineWidth = Math.max(1, width * c);
      this.ctx.stroke();
    }
    cross(row, col, colour) {
      this.line(row + 0.2, col + 0.2, row + 0.8, col + 0.8, colour, SIZE.thick);
      this.line(row + 0.2, col + 0.8, row + 0.8, col + 0.2, colour, SIZE.thick);
    }
    ladder(row, col, colour) {
      for (const side of [0.25, 0.75]) this.line(row, col + side, row + 1, col + side, colour);
      for (const rung of [0.3, 0.75]) this.line(row + rung, col + 0.25, row + rung, col + 0.75,
                                                colour);
    }
    // a flag on a pole
    flag(row, col, colour) {
      this.line(row + 0.15, col + 0.3, row + 0.85, col + 0.3, TEXT_DARK);
      const c = this.cell;
      this.ctx.beginPath();
      this.ctx.moveTo((col + 0.3) * c, (row + 0.15) * c);
      this.ctx.lineTo((col + 0.8) * c, (row + 0.32) * c);
      this.ctx.lineTo((col + 0.3) * c, (row + 0.5) * c);
      this.ctx.closePath();
      this.ctx.fillStyle = colour;
      this.ctx.fill();
    }
    // a bar along the bottom of the cell, full to ``fraction``
    bar(row, col, fraction) {
      if (this.cell < LETTER_MIN_CELL) return;
      const c = this.cell;
      const [left, top, width, height] = [(col + 0.1) * c, (row + 0.84) * c, 0.8 * c, 0.1 * c];
      this.ctx.fillStyle = BAR_EMPTY;
      this.ctx.fillRect(left, top, width, height);
      this.ctx.fillStyle = BAR_FULL;
      this.ctx.fillRect(left, top, width * fraction, height);
    }
    grid(rows, cols, colour) {
      const c = this.cell;
      if (c < LETTER_MIN_CELL) return;
      const half = 0.5;           // a 1-pixel line on the pixel grid, not across two
      this.ctx.strokeStyle = colour;
      this.ctx.lineWidth = 1;
      this.ctx.beginPath();
      for (let r = 0; r <= rows; r++) {
        this.ctx.moveTo(0, r * c + half);
        this.ctx.lineTo(cols * c, r * c + half);
      }
      for (let k = 0; k <= cols; k++) {
        this.ctx.moveTo(k * c + half, 0);
        this.ctx.lineTo(k * c + half, rows * c);
      }
      this.ctx.stroke();
    }
  }

  function eachCell(rows, draw) {
    rows.forEach((text, r) => {
      for (let c = 0; c < text.length; c++) draw(r, c, text[c]);
    });
  }

  const seatLetter = (seat) => String.fromCharCode("A".charCodeAt(0) + seat);

  // -- one drawer per game: draw(pen, view), info(view, seat), legend: [colour, text] -----
  const PAINT = {obstacle: "#3c3c3c", neutral: "#ebebeb", grid: "#c8c8c8"};
  const DUNGEON = {floor: "#ebe1c8", metal: "#505050", seam: "#3a3a3a", wood: "#a0703c",
                   grain: "#6e4a24", ore: "#c08040", ammo: "#2a7fff", treasure: "#f0c020",
                   fire: "rgba(250,90,20,0.75)", bomb: "#141414", body: "#8c8c8c",
                   grid: "#d0c6ae"};
  const ANTS = {land: "#ebe1c8", water: WATER, food: "#2e9e3e", razed: "#6e6e6e",
                grid: "#d7cdb4"};
  const RUNNER = {empty: "#14141e", brick: "#a0522d", mortar: "#5a2a14", ladder: "#d2be82",
                  gold: "#ffd21e", hole: "#6e3a1e", visited: "#ffffff28", enemy: "#3cc850",
                  trapped: "#1e6e28"};
  const TOWERS = {land: "#e1d7b4", water: WATER, flag: "#fae678", pennant: "#c83232",
                  grid: "#cdc3a0"};
  const RUNNER_LETTERS = ["R", "B"];
  const ANT_LETTERS = "abcd";

  const DRAWERS = {
    paint_v0: {
      draw(pen, v) {
        v.colour.forEach((row, r) => row.forEach((value, c) => {
          const colour = value < 0 ? PAINT.obstacle
            : value === 0 ? PAINT.neutral : tint(playerColour(value - 1), TINT);
          pen.square(r, c, colour);
        }));
        pen.grid(v.colour.length, v.colour[0].length, PAINT.grid);
        v.avatars.forEach(([r, c], seat) => {
          pen.disc(r, c, SIZE.piece, playerColour(seat));
          pen.text(r, c, seatLetter(seat), TEXT_LIGHT);
        });
      },
      info: (v, seat) => `at (${v.avatars[seat].join(",")})`,
      legend: [[PAINT.obstacle, "obstacle"], [PAINT.neutral, "unpainted"],
               [tint(PLAYER_COLOURS[0], TINT), "painted (owner's colour)"],
               [PLAYER_COLOURS[0], "A, B...: avatars"]],
    },

    dungeon_v0: {
      draw(pen, v) {
        eachCell(v.tiles, (r, c, tile) => {
          pen.square(r, c, DUNGEON.floor);
          if (tile === "1") {
            pen.square(r, c, DUNGEON.metal);
            pen.line(r, c, r + 1, c + 1, DUNGEON.seam);
          } else if (tile === "2") {
            pen.square(r, c, DUNGEON.wood, SIZE.block);
            pen.line(r + 0.5, c, r + 0.5, c + 1, DUNGEON.grain);
          } else if (tile === "3") {
            pen.square(r, c, DUNGEON.ore, SIZE.block);
          } else if (tile === "4") {
            pen.square(r, c, DUNGEON.ammo, SIZE.item);
            pen.text(r, c, "a", TEXT_LIGHT, SIZE.small);
          } else if (tile === "5") {
            pen.disc(r, c, SIZE.treasure, DUNGEON.treasure);
            pen.text(r, c, "$", TEXT_DARK, SIZE.small);
          }
        });
        pen.grid(v.tiles.length, v.tiles[0].length, DUNGEON.grid);
        v.ore.forEach(([r, c, hp]) => pen.text(r, c, hp, TEXT_DARK, SIZE.small));
        v.fire.forEach(([r, c]) => pen.square(r, c, DUNGEON.fire));
        v.players.forEach(([r, c, , , , alive], seat) => {
          if (alive) {
            pen.disc(r, c, SIZE.piece, playerColour(seat));
            pen.text(r, c, seat, TEXT_LIGHT);
          } else {
            pen.cross(r, c, DUNGEON.body);
          }
        });
        v.bombs.forEach(([r, c, owner, fuse]) => {
          pen.disc(r, c, SIZE.bomb, DUNGEON.bomb, playerColour(owner));
          pen.text(r, c, fuse, TEXT_LIGHT, SIZE.small);
        });
      },
      info(v, seat) {
        const [, , hp, ammo, power, alive] = v.players[seat];
        return alive ? `hp ${hp} · ammo ${ammo} · power ${power}` : "dead";
      },
      legend: [[DUNGEON.metal, "metal"], [DUNGEON.wood, "wood"], [DUNGEON.ore, "ore (hits left)"],
               [DUNGEON.ammo, "a: ammo"], [DUNGEON.treasure, "$: treasure"],
               [DUNGEON.bomb, "bomb (fuse; ring: owner)"], [DUNGEON.fire, "fire"],
               [PLAYER_COLOURS[0], "0, 1...: players"], [DUNGEON.body, "x: dead player"]],
    },

    ants_v0: {
      draw(pen, v) {
        eachCell(v.water, (r, c, ch) => pen.square(r, c, ch === "%" ? ANTS.water : ANTS.land));
        pen.grid(v.water.length, v.water[0].length, ANTS.grid);
        v.food.forEach(([r, c]) => pen.square(r, c, ANTS.food, SIZE.item));
        v.hills.forEach(([r, c, owner, razed]) => {
          pen.ring(r, c, SIZE.hill, razed ? ANTS.razed : playerColour(owner), SIZE.hillLine);
          if (razed) pen.text(r, c, "x", ANTS.razed);
        });
        v.ants.forEach(([r, c, owner]) => {
          pen.disc(r, c, SIZE.unit, playerColour(owner));
          pen.text(r, c, ANT_LETTERS[owner], TEXT_LIGHT, SIZE.small);
        });
      },
      info(v, seat) {
        const ants = v.ants.filter((ant) => ant[2] === seat).length;
        return `ants ${ants} · stored food ${v.stored[seat]}${v.alive[seat] ? "" : " · out"}`;
      },
      legend: [[ANTS.water, "water"], [ANTS.food, "food"],
               [PLAYER_COLOURS[0], "ring: hill"], [ANTS.razed, "x: razed hill"],
               [PLAYER_COLOURS[1], "a, b...: ants"]],
    },

    coderunner_v0: {
      draw(pen, v) {
        eachCell(v.board, (r, c, ch) => {
          pen.square(r, c, RUNNER.empty);
          if (ch === "=") {
            pen.square(r, c, RUNNER.brick, SIZE.block);
            pen.line(r + 0.5, c, r + 0.5, c + 1, RUNNER.mortar);
          } else if (ch === "H") {
            pen.ladder(r, c, RUNNER.ladder);
          } else if (ch === "*") {
            pen.disc(r, c, SIZE.gold, RUNNER.gold);
          } else if (ch === "-") {
            pen.outline(r, c, RUNNER.hole, SIZE.enemy);
          }
        });
        eachCell(v.visited, (r, c, seen) => {
          if (seen === "1") pen.square(r, c, RUNNER.visited, SIZE.visited);
        });
        v.enemies.forEach(([r, c, alive, trapped]) => {
          if (!alive) return;
          pen.square(r, c, trapped ? RUNNER.trapped : RUNNER.enemy, SIZE.enemy);
          pen.text(r, c, trapped ? "T" : "E", TEXT_DARK);
        });
        v.runners.forEach(([r, c, alive], seat) => {
          if (!alive) return;
          pen.disc(r, c, SIZE.piece, playerColour(seat), TEXT_LIGHT);
          pen.text(r, c, RUNNER_LETTERS[seat], TEXT_LIGHT);
        });
      },
      info: (v, seat) => (v.runners[seat][2] ? `at (${v.runners[seat].slice(0, 2).join(",")})`
        : "waiting to respawn"),
      legend: [[RUNNER.brick, "brick"], [RUNNER.ladder, "ladder"], [RUNNER.gold, "gold"],
               [RUNNER.hole, "dug brick"], [RUNNER.enemy, "E: enemy"],
               [RUNNER.trapped, "T: trapped enemy"], [PLAYER_COLOURS[0], "R, B: runners"]],
    },

    towers_v0: {
      draw(pen, v) {
        eachCell(v.terrain, (r, c, ch) => {
          pen.square(r, c, ch === "W" ? TOWERS.water : ch === "F" ? TOWERS.flag : TOWERS.land);
          if (ch === "F") pen.flag(r, c, TOWERS.pennant);
        });
        pen.grid(v.terrain.length, v.terrain[0].length, TOWERS.grid);
        v.towers.forEach(([owner, r, c, hp]) => {
          pen.square(r, c, playerColour(owner), SIZE.tower);
          pen.outline(r, c, OUTLINE, SIZE.tower, 1);
          pen.text(r, c, "T", TEXT_LIGHT);
          pen.bar(r, c, hp / DATA.config.max_tower_hp);
        });
        // bots grouped by tile and owner: one disc where they stand on average, the count
        const stacks = new Map();
        v.bots.forEach(([owner, x, y]) => {
          const key = `${owner},${Math.floor(x)},${Math.floor(y)}`;
          const stack = stacks.get(key) || {owner, x: 0, y: 0, count: 0};
          stack.x += x;
          stack.y += y;
          stack.count += 1;
          stacks.set(key, stack);
        });
        stacks.forEach(({owner, x, y, count}) => {
          const radius = count > 1 ? SIZE.stack : SIZE.bot;
          pen.discAt(x / count, y / count, radius, playerColour(owner), TEXT_LIGHT);
          if (count > 1) pen.textAt(x / count, y / count, count, TEXT_LIGHT, radius);
        });
      },
      info(v, seat) {
        const bots = v.bots.filter((b) => b[0] === seat).length;
        const towers = v.towers.filter((t) => t[0] === seat).length;
        return `bots ${bots} · towers ${towers} · +${v.turn_scores[seat]} last turn`;
      },
      legend: [[TOWERS.water, "water"], [TOWERS.flag, "flag"],
               [PLAYER_COLOURS[0], "T: tower (bar: hp)"],
               [PLAYER_COLOURS[1], "disc: bots (number: how many)"]],
    },
  };

  const drawer = DRAWERS[DATA.env];

  // -- page elements --------------------------------------------------------------------
  const $ = (id) => document.getElementById(id);
  const board = $("board");
  const ctx = board.getContext("2d");
  const scrub = $("scrub");
  const playButton = $("play");
  const speed = $("speed");

  function element(tag, attributes = {}, text = "") {
    const node = document.createElement(tag);
    Object.entries(attributes).forEach(([key, value]) => node.setAttribute(key, value));
    node.textContent = text;
    return node;
  }

  function swatch(colour) {
    return element("span", {class: "swatch", style: `background:${colour}`});
  }

  $("subtitle").textContent = `seed ${DATA.seed} · ${frames.length} frames` +
    (DATA.result && DATA.result.scores ? ` · final scores ${DATA.result.scores.join(" : ")}`
      : "");
  DATA.agents.forEach((name, seat) => {
    const row = element("tr");
    const who = element("td");
    who.append(swatch(playerColour(seat)), element("span", {}, `${seat} ${name}`));
    row.append(who, element("td", {class: "score", id: `score-${seat}`}),
               element("td", {class: "extra", id: `info-${seat}`}));
    $("score-rows").append(row);
  });
  drawer.legend.forEach(([colour, text]) => {
    const item = element("li");
    item.append(swatch(colour), element("span", {}, text));
    $("legend").append(item);
  });
  SPEEDS.forEach((fps) => {
    const option = element("option", {value: fps}, `${fps} / s`);
    if (fps === DEFAULT_SPEED) option.selected = true;
    speed.append(option);
  });
  scrub.max = frames.length - 1;
  $("frames").textContent = frames.length - 1;

  // -- the chart of the scores: lines drawn once, the current frame marked on top ---------
  const chart = $("chart");
  const chartCtx = chart.getContext("2d");
  const lines = document.createElement("canvas");
  lines.width = chart.width;
  lines.height = chart.height;
  const frameX = (i) => CHART_PAD + (chart.width - 2 * CHART_PAD) * i /
    Math.max(frames.length - 1, 1);
  (function drawLines() {
    const all = frames.flatMap((f) => f.scores);
    const low = Math.min(0, ...all);
    const high = Math.max(low + 1, ...all);
    const y = (score) => chart.height - CHART_PAD -
      (chart.height - 2 * CHART_PAD) * (score - low) / (high - low);
    const g = lines.getContext("2d");
    g.lineWidth = 2;
    for (let seat = 0; seat < seats; seat++) {
      g.beginPath();
      frames.forEach((f, i) => (i ? g.lineTo : g.moveTo).call(g, frameX(i), y(f.scores[seat])));
      g.strokeStyle = playerColour(seat);
      g.stroke();
    }
    g.fillStyle = TEXT_DARK;
    g.font = "11px sans-serif";
    g.fillText(String(high), 2, CHART_PAD + 4);
  })();

  function drawChart(index) {
    chartCtx.clearRect(0, 0, chart.width, chart.height);
    chartCtx.drawImage(lines, 0, 0);
    chartCtx.strokeStyle = OUTLINE;
    chartCtx.lineWidth = 1;
    chartCtx.beginPath();
    chartCtx.moveTo(frameX(index), 0);
    chartCtx.lineTo(frameX(index), chart.height);
    chartCtx.stroke();
  }

  // -- showing a frame --------------------------------------------------------------------
  let current = 0;

  function show(index) {
    current = Math.max(0, Math.min(frames.length - 1, index));
    const frame = frames[current];
    const rows = frame.view[DATA.grid].length;
    const cols = frame.view[DATA.grid][0].length;
    const cell = Math.max(MIN_CELL, Math.min(MAX_CELL,
      Math.floor(MAX_BOARD_PIXELS / Math.max(rows, cols))));
    if (board.width !== cols * cell || board.height !== rows * cell) {
      board.width = cols * cell;
      board.height = rows * cell;
    }
    ctx.clearRect(0, 0, board.width, board.height);
    drawer.draw(new Pen(ctx, cell), frame.view);
    $("turn").textContent = frame.turn;
    $("frame").textContent = current;
    $("over").textContent = frame.over ? "· game over" : "";
    frame.scores.forEach((score, seat) => {
      $(`score-${seat}`).textContent = score;
      $(`info-${seat}`).textContent = drawer.info(frame.view, seat);
    });
    const actions = $("actions");
    actions.replaceChildren();
    if (!frame.actions.length) actions.append(element("li", {}, "(a new game)"));
    frame.actions.forEach((labels, seat) => {
      const item = element("li");
      item.append(swatch(playerColour(seat)),
                  element("span", {}, `${seat}: ${labels.join(", ") || "nothing"}`));
      actions.append(item);
    });
    scrub.value = current;
    drawChart(current);
  }

  // -- controls ---------------------------------------------------------------------------
  let timer = null;

  function pause() {
    clearInterval(timer);
    timer = null;
    playButton.textContent = "play";
  }

  function play() {
    if (current >= frames.length - 1) show(0);
    clearInterval(timer);
    timer = setInterval(() => {
      if (current >= frames.length - 1) pause();
      else show(current + 1);
    }, 1000 / Number(speed.value));
    playButton.textContent = "pause";
  }

  const step = (delta) => () => {
    pause();
    show(current + delta);
  };
  playButton.addEventListener("click", () => (timer ? pause() : play()));
  $("back").addEventListener("click", step(-1));
  $("forward").addEventListener("click", step(1));
  $("first").addEventListener("click", () => { pause(); show(0); });
  $("last").addEventListener("click", () => { pause(); show(frames.length - 1); });
  scrub.addEventListener("input", () => { pause(); show(Number(scrub.value)); });
  speed.addEventListener("change", () => { if (timer) play(); });
  const KEYS = {" ": () => playButton.click(), ArrowLeft: step(-1), ArrowRight: step(1),
                Home: () => $("first").click(), End: () => $("last").click()};
  document.addEventListener("keydown", (event) => {
    if (event.target.tagName === "SELECT" || !KEYS[event.key]) return;
    event.preventDefault();
    KEYS[event.key]();
  });

  show(0);
})();
