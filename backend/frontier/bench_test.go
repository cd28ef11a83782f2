package frontier

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"mundaneum/backend/politeness"
	"mundaneum/backend/store"
)

// countingGate counts how often the frontier asks politeness for a slot.
type countingGate struct {
	*politeness.Limiter
	asks int
}

func (g *countingGate) TryAcquire(host string, now time.Time) (bool, time.Time) {
	g.asks++
	return g.Limiter.TryAcquire(host, now)
}

// BenchmarkNext is the cost of handing out one page as a crawl of many sites does: the
// real limiter with a delay of a second, 16 agents whose requests take 20-400 ms (a
// simulated clock, so the same every run), each page put back when its request ends so
// that the queue stays full. Most hosts wait at any moment. asks/op counts the limiter's
// TryAcquire calls per page handed out, the part a loaded machine does not blur.
// Run: CGO_ENABLED=0 go test -run '^$' -bench BenchmarkNext ./backend/frontier/
func BenchmarkNext(b *testing.B) {
	for _, hosts := range []int{4, 16, 1000} {
		b.Run(fmt.Sprintf("hosts=%d", hosts), func(b *testing.B) {
			g := &countingGate{Limiter: politeness.New(politeness.Config{Delay: time.Second, PerHost: 2})}
			f := New(&fakeSource{}, 1, 10)
			for i := range hosts * 4 {
				f.Push(Item{Lease: store.Lease{Origin: fmt.Sprintf("http://h%d.example", i%hosts)}, Gated: true})
			}
			wake, _ := any(f).(interface{ Wake(string) }) // the frontier before hostq had none
			type flight struct {
				it  Item
				end time.Time
			}
			var busy []flight // in flight, by end
			rng := rand.New(rand.NewPCG(1, 2))
			now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
			b.ResetTimer()
			for range b.N {
				for {
					if len(busy) < 16 {
						if it, ok, at := f.Next(g, now); ok {
							end := now.Add(time.Duration(20+rng.IntN(380)) * time.Millisecond)
							i, _ := slices.BinarySearchFunc(busy, end, func(x flight, t time.Time) int { return x.end.Compare(t) })
							busy = slices.Insert(busy, i, flight{it, end})
							break
						} else if len(busy) == 0 || (!at.IsZero() && at.Before(busy[0].end)) {
							now = at
							continue
						}
					}
					done := busy[0]
					busy = busy[1:]
					now = done.end
					g.Release(done.it.Origin, now, politeness.Feedback{Status: 200})
					if wake != nil {
						wake.Wake(done.it.Origin)
					}
					f.Push(done.it)
				}
			}
			b.ReportMetric(float64(g.asks)/float64(b.N), "asks/op")
		})
	}
}
