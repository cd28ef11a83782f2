package robots

import "time"

// lookup returns origin's entry if it is cached and not expired at now, marking it as
// recently used.
func (c *Cache) lookup(origin string, now time.Time) (*entry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.entries[origin]
	if !ok {
		return nil, false
	}
	e := el.Value.(*entry)
	if !now.Before(e.expires) {
		return nil, false
	}
	c.order.MoveToFront(el)
	return e, true
}

// insert adds or replaces e, then evicts least recently used entries until the cache
// holds at most MaxEntries origins and maxCacheSize bytes (the newest entry always stays).
func (c *Cache) insert(e *entry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[e.origin]; ok {
		c.size -= el.Value.(*entry).cost
		c.order.Remove(el)
	}
	c.entries[e.origin] = c.order.PushFront(e)
	c.size += e.cost
	for c.order.Len() > 1 && (c.order.Len() > MaxEntries || c.size > maxCacheSize) {
		last := c.order.Back()
		old := last.Value.(*entry)
		c.order.Remove(last)
		delete(c.entries, old.origin)
		c.size -= old.cost
	}
}

// Len reports how many origins are held in memory.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
