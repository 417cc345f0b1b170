// navgraph route planner: MapLibre GL JS over the graph's own roads (/roads/v1), routes from /route/v1
// (list and steps) and /geojson/v1 (the styled features the theme's layers in /map/v1/style.json draw).
// Everything is loaded from this server. State for headless checks lives on <body>: data-status
// (idle|routing|routed|error), data-routes, data-error, data-map (loading|ready|missing), data-map-errors,
// data-map-error, data-foreign (resources from other origins, space-separated).
"use strict";

const MAX_POINTS = 10;            // origin, destination and up to 8 waypoints
const ROUTE_SOURCE = "navgraph-route";
const LABEL_SOURCE = "navgraph-route-labels";
const ROAD_SOURCE = "navgraph-roads";
const POSITION_SOURCE = "navgraph-position";
const AVOID_TO_EXCLUDE = { toll: "toll", ferry: "ferry", highway: "motorway" };

const body = document.body;
const $ = (id) => document.getElementById(id);

const state = {
  points: [],          // [{lat, lon}]
  alternatives: 0,
  avoid: new Set(),
  traffic: true,
  depart: "",          // "YYYY-MM-DDTHH:MM", UTC
  position: null,      // {lat, lon} vehicle position
  selected: 0,         // index of the route drawn as primary
};
let info = { traffic: false, max_alternatives: 3, bounds: [-180, -85, 180, 85] };
let map = null;
let mapReady = false;
let lastDirections = null;   // /route/v1 body
let lastGeoJSON = null;      // /geojson/v1 body
let requestNumber = 0;

// ---------------------------------------------------------------- state <-> URL

function readURL() {
  const query = new URLSearchParams(location.search);
  for (const loc of query.getAll("loc")) {
    const point = parseLatLon(loc);
    if (point && state.points.length < MAX_POINTS) state.points.push(point);
  }
  const alternatives = parseInt(query.get("alternatives") || "0", 10);
  state.alternatives = Number.isFinite(alternatives) && alternatives > 0 ? alternatives : 0;
  for (const item of (query.get("avoid") || "").split(",")) if (item) state.avoid.add(item);
  state.traffic = query.get("traffic") !== "0" && query.get("traffic") !== "false";
  state.depart = query.get("depart") || "";
  state.position = parseLatLon(query.get("pos") || "");
  const selected = parseInt(query.get("route") || "0", 10);
  state.selected = Number.isFinite(selected) && selected >= 0 ? selected : 0;
}

function parseLatLon(text) {
  const parts = text.split(",").map(Number);
  if (parts.length !== 2 || !parts.every(Number.isFinite)) return null;
  if (Math.abs(parts[0]) > 90 || Math.abs(parts[1]) > 180) return null;
  return { lat: parts[0], lon: parts[1] };
}

const fmt = (p) => `${p.lat.toFixed(5)},${p.lon.toFixed(5)}`;

function shareURL() {
  const query = new URLSearchParams();
  for (const p of state.points) query.append("loc", fmt(p));
  if (state.alternatives > 0) query.set("alternatives", String(state.alternatives));
  if (state.avoid.size) query.set("avoid", [...state.avoid].join(","));
  if (!state.traffic) query.set("traffic", "0");
  if (state.depart) query.set("depart", state.depart);
  if (state.position) query.set("pos", fmt(state.position));
  if (state.selected > 0) query.set("route", String(state.selected));
  return "/?" + query.toString().replace(/%2C/g, ",");
}

function updateURL() {
  const url = shareURL();
  $("share").href = url;
  $("share").textContent = "Share link: " + location.origin + url;
  history.replaceState(null, "", url);
}

// ---------------------------------------------------------------- status for users and tests

function setStatus(status, routes, error) {
  body.dataset.status = status;
  body.dataset.requests = String(requestNumber);
  body.dataset.routes = String(routes);
  body.dataset.error = error || "";
  const box = $("error");
  box.hidden = !error;
  box.textContent = error || "";
  recordForeignRequests();
}

function notice(text) {
  const box = $("notice");
  box.hidden = false;
  box.textContent = box.textContent ? box.textContent + " " + text : text;
}

// Resources loaded from anything but this server (there should be none).
function recordForeignRequests() {
  const foreign = performance.getEntriesByType("resource").map((e) => e.name)
    .filter((name) => { try { return new URL(name, location.href).origin !== location.origin; } catch (e) { return true; } });
  body.dataset.foreign = foreign.join(" ");
}

function mapError(message) {
  body.dataset.mapErrors = String(Number(body.dataset.mapErrors || "0") + 1);
  body.dataset.mapError = message;
  console.error("map error: " + message);
}

// ---------------------------------------------------------------- routing

function routeQuery() {
  const query = new URLSearchParams();
  if (state.alternatives > 0) query.set("alternatives", String(state.alternatives));
  const exclude = [...state.avoid].map((a) => AVOID_TO_EXCLUDE[a] || a);
  if (exclude.length) query.set("exclude", exclude.join(","));
  if (state.depart) query.set("depart_at", state.depart);
  if (info.traffic && !state.traffic) query.set("traffic", "false");
  return query;
}

// A server started with --access-tokens needs one on every API request: the page passes on its own
// (open it as /?access_token=...).
const ACCESS_TOKEN = new URLSearchParams(window.location.search).get("access_token");

async function fetchJSON(url) {
  const signed = ACCESS_TOKEN ? `${url}${url.includes("?") ? "&" : "?"}access_token=${encodeURIComponent(ACCESS_TOKEN)}` : url;
  const response = await fetch(signed);
  let json = null;
  try { json = await response.json(); } catch (e) { /* not JSON */ }
  if (!response.ok || !json || (json.code && json.code !== "Ok")) {
    const message = json && json.message ? json.message : `${url}: HTTP ${response.status}`;
    throw new Error(json && json.code ? `${json.code}: ${message}` : message);
  }
  return json;
}

async function route() {
  updateURL();
  renderPoints();
  const number = ++requestNumber;
  if (state.points.length < 2) {
    lastDirections = lastGeoJSON = null;
    renderRoutes();
    drawRoute();
    setStatus("idle", 0, "");
    return;
  }
  setStatus("routing", 0, "");
  const coordinates = state.points.map((p) => `${p.lon.toFixed(6)},${p.lat.toFixed(6)}`).join(";");
  const directionsQuery = routeQuery();
  directionsQuery.set("steps", "true");
  directionsQuery.set("overview", "false");
  const geojsonQuery = routeQuery();
  if (state.position) geojsonQuery.set("position", `${state.position.lon.toFixed(6)},${state.position.lat.toFixed(6)}`);
  try {
    const [directions, geojson] = await Promise.all([
      fetchJSON(`/route/v1/driving/${coordinates}?${directionsQuery}`),
      fetchJSON(`/geojson/v1/driving/${coordinates}?${geojsonQuery}`),
    ]);
    if (number !== requestNumber) return;
    lastDirections = directions;
    lastGeoJSON = geojson;
    if (state.selected >= directions.routes.length) state.selected = 0;
    renderRoutes();
    drawRoute();
    updateURL();
    setStatus("routed", directions.routes.length, "");
  } catch (error) {
    if (number !== requestNumber) return;
    lastDirections = lastGeoJSON = null;
    renderRoutes();
    drawRoute();
    setStatus("error", 0, error.message);
  }
}

// ---------------------------------------------------------------- panel

// Numbered from 1 like the server's waypoint labels on the map.
function pointTag(index) {
  return String(index + 1);
}

function renderPoints() {
  const list = $("points");
  list.textContent = "";
  state.points.forEach((p, index) => {
    const item = document.createElement("li");
    const tag = document.createElement("span");
    tag.className = "tag";
    tag.textContent = pointTag(index);
    const where = document.createElement("span");
    where.className = "where";
    where.textContent = fmt(p);
    const remove = document.createElement("button");
    remove.type = "button";
    remove.title = "remove";
    remove.textContent = "✕";
    remove.addEventListener("click", () => { state.points.splice(index, 1); state.selected = 0; route(); });
    item.append(tag, where, remove);
    list.append(item);
  });
}

const minutes = (s) => s >= 3600 ? `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min` : `${Math.max(1, Math.round(s / 60))} min`;
const distance = (m) => m >= 1000 ? `${(m / 1000).toFixed(1)} km` : `${Math.round(m)} m`;

function renderRoutes() {
  const list = $("routes");
  list.textContent = "";
  const steps = $("steps");
  steps.textContent = "";
  if (!lastDirections) return;
  lastDirections.routes.forEach((r, index) => {
    const item = document.createElement("li");
    item.className = index === state.selected ? "selected" : "";
    item.dataset.index = String(index);
    const typical = r.duration_typical != null && Math.abs(r.duration_typical - r.duration) >= 30
      ? `typically ${minutes(r.duration_typical)}` : "";
    item.innerHTML = `<span class="duration"></span><span class="distance"></span><span class="typical"></span>`;
    item.querySelector(".duration").textContent = minutes(r.duration);
    item.querySelector(".distance").textContent = distance(r.distance);
    item.querySelector(".typical").textContent = typical;
    item.title = index === 0 ? "fastest route" : `alternative ${index}`;
    item.addEventListener("click", () => { state.selected = index; renderRoutes(); drawRoute(); updateURL(); });
    list.append(item);
  });
  const selected = lastDirections.routes[state.selected];
  if (!selected) return;
  for (const leg of selected.legs || []) {
    for (const step of leg.steps || []) {
      const m = step.maneuver || {};
      const item = document.createElement("li");
      const text = m.instruction || [m.type, m.modifier, step.name ? `onto ${step.name}` : ""].filter(Boolean).join(" ");
      item.textContent = text;
      const meta = document.createElement("span");
      meta.className = "meta";
      meta.textContent = step.distance ? distance(step.distance) : "";
      item.append(meta);
      if (Array.isArray(m.location)) {
        item.addEventListener("click", () => map && map.flyTo({ center: m.location, zoom: Math.max(map.getZoom(), 17) }));
      }
      steps.append(item);
    }
  }
}

// ---------------------------------------------------------------- drawing

// Route features from /geojson/v1 with the chosen route promoted to primary; before a route exists, the
// clicked points as waypoint features so the theme's circles and labels still show them.
function routeFeatures() {
  if (!lastGeoJSON) {
    return state.points.map((p, index) => ({
      type: "Feature",
      geometry: { type: "Point", coordinates: [p.lon, p.lat] },
      properties: { featureType: "waypoint", waypointIndex: index, name: pointTag(index), waypointCompleted: false },
    }));
  }
  return lastGeoJSON.features.map((f) => {
    const props = f.properties || {};
    if (props.routeIndex === undefined) return f;
    const primary = props.routeIndex === state.selected;
    const copy = Object.assign({}, props, { isAlternateRoute: !primary });
    if (props.routeIndex !== 0) copy.traversed = false;   // the position splits the fastest route only
    return Object.assign({}, f, { properties: copy });
  }).sort((a, b) => Number(!(a.properties || {}).isAlternateRoute) - Number(!(b.properties || {}).isAlternateRoute));
}

function drawRoute() {
  if (!mapReady) return;
  body.dataset.mapIdle = "false";
  const features = routeFeatures();
  map.getSource(ROUTE_SOURCE).setData({ type: "FeatureCollection", features });
  map.getSource(LABEL_SOURCE).setData({ type: "FeatureCollection",
    features: features.filter((f) => f.geometry && f.geometry.type === "Point") });
  map.getSource(POSITION_SOURCE).setData({ type: "FeatureCollection", features: state.position
    ? [{ type: "Feature", geometry: { type: "Point", coordinates: [state.position.lon, state.position.lat] }, properties: {} }] : [] });
}

// The vehicle position: a puck in the theme's casing colour (read from the served style, not written here).
function addPositionLayer(style) {
  const casing = style.layers.find((l) => l.id === "route-casing");
  const color = (casing && casing.paint && casing.paint["line-color"]) || "#000000";
  map.addSource(POSITION_SOURCE, { type: "geojson", data: { type: "FeatureCollection", features: [] } });
  map.addLayer({ id: "vehicle-position", type: "circle", source: POSITION_SOURCE,
    paint: { "circle-radius": 7, "circle-color": color, "circle-stroke-color": "#FFFFFF", "circle-stroke-width": 3 } });
}

function fitRoute() {
  if (!mapReady || !lastGeoJSON) return;
  let west = 180, south = 90, east = -180, north = -90;
  const visit = (c) => { west = Math.min(west, c[0]); east = Math.max(east, c[0]); south = Math.min(south, c[1]); north = Math.max(north, c[1]); };
  for (const f of lastGeoJSON.features) {
    const g = f.geometry;
    if (!g) continue;
    if (g.type === "Point") visit(g.coordinates);
    if (g.type === "LineString") g.coordinates.forEach(visit);
  }
  if (west <= east) map.fitBounds([[west, south], [east, north]], { padding: 60, duration: 0 });
}

// ---------------------------------------------------------------- road tiles

const tileCache = new Map();   // "z/x/y" -> Promise of features

function tilesInView() {
  const bounds = map.getBounds();
  let z = Math.max(0, Math.min(16, Math.floor(map.getZoom())));
  const tileX = (lon, z) => Math.floor((lon + 180) / 360 * (1 << z));
  const tileY = (lat, z) => {
    const r = Math.max(-85.05, Math.min(85.05, lat)) * Math.PI / 180;
    return Math.floor((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2 * (1 << z));
  };
  for (;;) {
    const n = 1 << z;
    const x0 = Math.max(0, tileX(bounds.getWest(), z)), x1 = Math.min(n - 1, tileX(bounds.getEast(), z));
    const y0 = Math.max(0, tileY(bounds.getNorth(), z)), y1 = Math.min(n - 1, tileY(bounds.getSouth(), z));
    if ((x1 - x0 + 1) * (y1 - y0 + 1) <= 36 || z === 0) {
      const tiles = [];
      for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) tiles.push(`${z}/${x}/${y}`);
      return tiles;
    }
    z -= 1;
  }
}

let roadsRequest = 0;
async function loadRoads() {
  if (!mapReady) return;
  const number = ++roadsRequest;
  const tiles = tilesInView();
  const results = await Promise.all(tiles.map((key) => {
    if (!tileCache.has(key)) {
      tileCache.set(key, fetchJSON(`/roads/v1/${key}`).then((json) => json.features)
        .catch((error) => { tileCache.delete(key); mapError(`roads ${key}: ${error.message}`); return []; }));
    }
    return tileCache.get(key);
  }));
  if (number !== roadsRequest) return;
  const seen = new Set();
  const features = [];
  for (const list of results) for (const f of list) if (!seen.has(f.id)) { seen.add(f.id); features.push(f); }
  body.dataset.mapIdle = "false";
  map.getSource(ROAD_SOURCE).setData({ type: "FeatureCollection", features });
  body.dataset.roads = String(features.length);
  if (tileCache.size > 400) tileCache.clear();
}

// ---------------------------------------------------------------- interaction

const metres = (a, b) => {
  const x = (b.lon - a.lon) * Math.cos((a.lat + b.lat) * Math.PI / 360), y = b.lat - a.lat;
  return Math.sqrt(x * x + y * y) * 111195;
};

// First click the origin, then the destination; later clicks become a waypoint in the leg they lengthen least.
function addPoint(p) {
  if (state.points.length >= MAX_POINTS) {
    setStatus(body.dataset.status, Number(body.dataset.routes), `at most ${MAX_POINTS - 2} waypoints between origin and destination`);
    return;
  }
  if (state.points.length < 2) {
    state.points.push(p);
  } else {
    let best = 1, bestCost = Infinity;
    for (let i = 1; i < state.points.length; i++) {
      const a = state.points[i - 1], b = state.points[i];
      const cost = metres(a, p) + metres(p, b) - metres(a, b);
      if (cost < bestCost) { bestCost = cost; best = i; }
    }
    state.points.splice(best, 0, p);
  }
  state.selected = 0;
  route();
}

function setupInteraction() {
  let dragging = null;   // index of the point being dragged
  let suppressClick = false;
  const startDrag = (e) => {
    const feature = e.features && e.features[0];
    if (!feature || feature.properties.waypointIndex === undefined) return;
    e.preventDefault();
    dragging = Number(feature.properties.waypointIndex);
    map.getCanvas().style.cursor = "grabbing";
  };
  map.on("mousedown", "waypoint-circle", startDrag);
  map.on("touchstart", "waypoint-circle", (e) => { if (e.points && e.points.length === 1) startDrag(e); });
  const move = (e) => {
    if (dragging === null) return;
    state.points[dragging] = { lat: e.lngLat.lat, lon: e.lngLat.lng };
    lastGeoJSON = lastGeoJSON && Object.assign({}, lastGeoJSON, { features: lastGeoJSON.features.map((f) =>
      f.properties && f.properties.featureType === "waypoint" && f.properties.waypointIndex === dragging
        ? Object.assign({}, f, { geometry: { type: "Point", coordinates: [e.lngLat.lng, e.lngLat.lat] } }) : f) });
    drawRoute();
  };
  const end = () => {
    if (dragging === null) return;
    dragging = null;
    suppressClick = true;
    setTimeout(() => { suppressClick = false; }, 0);
    map.getCanvas().style.cursor = "";
    state.selected = 0;
    route();
  };
  map.on("mousemove", move);
  map.on("touchmove", move);
  map.on("mouseup", end);
  map.on("touchend", end);
  map.on("mouseenter", "waypoint-circle", () => { map.getCanvas().style.cursor = "grab"; });
  map.on("mouseleave", "waypoint-circle", () => { if (dragging === null) map.getCanvas().style.cursor = ""; });
  map.on("click", (e) => {
    if (suppressClick) return;
    if (map.queryRenderedFeatures(e.point, { layers: ["waypoint-circle"] }).length) return;
    addPoint({ lat: e.lngLat.lat, lon: e.lngLat.lng });
  });
  // Right-click, or a long press on touch screens: the vehicle position (splits off the traversed part).
  map.on("contextmenu", (e) => {
    state.position = { lat: e.lngLat.lat, lon: e.lngLat.lng };
    route();
  });
  let pressTimer = null;
  map.on("touchstart", (e) => {
    clearTimeout(pressTimer);
    if (e.points && e.points.length === 1 && dragging === null) {
      const at = e.lngLat;
      pressTimer = setTimeout(() => { state.position = { lat: at.lat, lon: at.lng }; route(); }, 650);
    }
  });
  for (const name of ["touchend", "touchmove", "dragstart"]) map.on(name, () => clearTimeout(pressTimer));
}

function setupPanel() {
  const select = $("alternatives");
  for (let n = 0; n <= Math.max(0, info.max_alternatives); n++) {
    const option = document.createElement("option");
    option.value = String(n);
    option.textContent = n === 0 ? "none" : String(n);
    select.append(option);
  }
  if (state.alternatives > info.max_alternatives) {
    const option = document.createElement("option");
    option.value = option.textContent = String(state.alternatives);
    select.append(option);
  }
  select.value = String(state.alternatives);
  select.addEventListener("change", () => { state.alternatives = Number(select.value); state.selected = 0; route(); });
  for (const box of document.querySelectorAll("input[name=avoid]")) {
    box.checked = state.avoid.has(box.value);
    box.addEventListener("change", () => {
      if (box.checked) state.avoid.add(box.value); else state.avoid.delete(box.value);
      state.selected = 0;
      route();
    });
  }
  const traffic = $("traffic");
  traffic.checked = state.traffic && info.traffic;
  traffic.disabled = !info.traffic;
  $("traffic-note").textContent = info.traffic ? `(${(info.traffic_label || "loaded").split("/").pop()})` : "(none loaded on the server)";
  traffic.addEventListener("change", () => { state.traffic = traffic.checked; route(); });
  const depart = $("depart");
  depart.value = state.depart;
  depart.addEventListener("change", () => { state.depart = depart.value; route(); });
  $("reverse").addEventListener("click", () => { state.points.reverse(); state.selected = 0; route(); });
  $("clear").addEventListener("click", () => { state.points = []; state.position = null; state.selected = 0; route(); });
}

// ---------------------------------------------------------------- start

async function start() {
  readURL();
  try {
    info = await fetchJSON("/info");
  } catch (error) {
    notice(`/info failed (${error.message}); traffic and limits unknown.`);
  }
  if (info.missing && info.missing.length) notice(`The server lacks ${info.missing.join(", ")}: run Tools/setup.sh.`);
  setupPanel();
  renderPoints();
  updateURL();
  const routing = route();
  if (typeof maplibregl === "undefined") {
    body.dataset.map = "missing";
    notice("MapLibre GL JS did not load from /assets/maplibre-gl.js, so there is no map: run Tools/setup.sh (it fills .build/web) or start navgraph serve with --assets DIR. Routing below still works with the share URL.");
    return routing;
  }
  let style;
  try {
    style = await fetchJSON("/map/v1/style.json");
  } catch (error) {
    body.dataset.map = "missing";
    notice(`The map style failed to load: ${error.message}`);
    return routing;
  }
  // MapLibre wants an absolute glyph URL; a relative one refers to this server.
  if (typeof style.glyphs === "string" && style.glyphs.startsWith("/")) style.glyphs = location.origin + style.glyphs;
  const [west, south, east, north] = info.bounds;
  try {
    map = new maplibregl.Map({
    container: "map", style, bounds: [[west, south], [east, north]], fitBoundsOptions: { padding: 20 },
    attributionControl: { compact: true, customAttribution: "Roads © OpenStreetMap contributors" },
    maxPitch: 0, dragRotate: false,
    });
  } catch (error) {
    body.dataset.map = "missing";
    mapError(error.message);
    notice(`The map could not start: ${error.message}`);
    return routing;
  }
  map.addControl(new maplibregl.NavigationControl({ showCompass: false }), "top-right");
  map.addControl(new maplibregl.ScaleControl(), "bottom-right");
  map.on("error", (e) => mapError((e && e.error && e.error.message) || String(e)));
  map.on("load", async () => {
    mapReady = true;
    body.dataset.map = "ready";
    addPositionLayer(style);
    setupInteraction();
    map.on("moveend", loadRoads);
    await routing;
    drawRoute();
    fitRoute();
    await loadRoads();
    map.on("idle", () => { body.dataset.mapIdle = "true"; recordForeignRequests(); });
  });
  return routing;
}

// Uncaught errors are shown and recorded, so neither a user nor a test misses them.
window.addEventListener("error", (e) => { body.dataset.pageError = String(e.message); notice(`Page error: ${e.message}`); });
window.addEventListener("unhandledrejection", (e) => {
  body.dataset.pageError = String(e.reason && e.reason.message || e.reason);
  notice(`Page error: ${body.dataset.pageError}`);
});

start();
