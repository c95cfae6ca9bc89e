// What a reader would notice first, measured in the rendered page: images that did not load,
// anything wider than the screen (but what scrolls in a box of its own), text drawn over other
// text (or over an image).
(() => {
  const viewport = document.documentElement.clientWidth;
  const hidden = (element) => {
    for (let e = element; e && e !== document.body; e = e.parentElement) {
      const style = getComputedStyle(e);
      if (style.display === "none" || style.visibility === "hidden") return true;
      if (style.clip && style.clip !== "auto") return true; // visually hidden (screen readers)
      const box = e.getBoundingClientRect();
      if (style.overflow === "hidden" && (box.width <= 1 || box.height <= 1)) return true;
    }
    return false;
  };
  // inside a box that scrolls sideways (a wide table's): reached by scrolling that box, whose
  // own width is checked, not the page
  const scrolled = (element) => {
    for (let e = element.parentElement; e && e !== document.body; e = e.parentElement) {
      if (["auto", "scroll"].includes(getComputedStyle(e).overflowX)) return true;
    }
    return false;
  };
  const result = {
    viewport,
    scrollWidth: document.documentElement.scrollWidth,
    images: [],
    wide: [],
    overlaps: [],
    textBoxes: 0,
  };
  for (const img of document.images) {
    const box = img.getBoundingClientRect();
    result.images.push({
      alt: img.alt,
      complete: img.complete,
      naturalWidth: img.naturalWidth,
      width: box.width,
      right: box.right,
    });
  }
  for (const element of document.body.querySelectorAll("*")) {
    const box = element.getBoundingClientRect();
    if ((box.width === 0 && box.height === 0) || hidden(element) || scrolled(element)) continue;
    if (box.left < -0.5 || box.right > viewport + 0.5) {
      result.wide.push({
        tag: element.tagName,
        className: String(element.className),
        left: box.left,
        right: box.right,
        text: (element.textContent || "").trim().slice(0, 80),
      });
    }
  }
  const boxes = [];
  let owner = 0;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.textContent.trim() || hidden(node.parentElement)) continue;
    owner += 1;
    const range = document.createRange();
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) {
      if (r.width < 0.5 || r.height < 0.5) continue;
      boxes.push({
        owner,
        left: r.left, right: r.right, top: r.top + scrollY, bottom: r.bottom + scrollY,
        text: node.textContent.trim().slice(0, 50),
      });
    }
  }
  result.textBoxes = boxes.length;
  for (const img of document.images) {
    const r = img.getBoundingClientRect();
    owner += 1;
    boxes.push({
      owner,
      left: r.left, right: r.right, top: r.top + scrollY, bottom: r.bottom + scrollY,
      text: `<img alt="${img.alt.slice(0, 40)}">`,
    });
  }
  const tolerance = 1; // px: glyph boxes of neighbouring lines may touch
  for (let i = 0; i < boxes.length; i++) {
    const a = boxes[i];
    for (let j = i + 1; j < boxes.length; j++) {
      const b = boxes[j];
      if (a.owner === b.owner) continue;
      const width = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const height = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (width > tolerance && height > tolerance) {
        result.overlaps.push([a.text, b.text, Math.round(width), Math.round(height)]);
        if (result.overlaps.length > 20) return result;
      }
    }
  }
  return result;
})()
