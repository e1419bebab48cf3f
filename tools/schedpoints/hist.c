// SPDX-License-Identifier: GPL-2.0-only
/*
 * Log2 histograms of off-CPU time (the 'hist' field of the format):
 * bucket bounds and percentiles.
 *
 * Bucket K of the format (K from 9 to 34) counts the calls whose off-CPU
 * time t had 2^K <= t < 2^(K+1) ns; K 9 also counts every t below 2^10
 * (0 too) and K 34 every t of 2^34 ns or more.  The tool keeps bucket K at
 * index K - SP_HIST_MIN of struct sp_hist.
 *
 * A percentile is what Prometheus' histogram_quantile() returns for the
 * same buckets exposed as a histogram (prom.c): the rank q * calls falls in
 * the first bucket whose cumulative count reaches it, and the value is
 * interpolated linearly within that bucket, from its lower bound (0 for the
 * first) to its upper bound (max_ns for the last, which has no bound of its
 * own; histogram_quantile() returns the lower bound there instead, as it
 * does not know max_ns).  The result is rounded down to a whole nanosecond
 * and clamped to max_ns, the longest stretch seen, which no percentile can
 * exceed.  It is computed exactly in integers.
 */
#include <string.h>

#include "schedpoints.h"

uint64_t sp_hist_lower(unsigned i)
{
	return i ? (uint64_t)1 << (SP_HIST_MIN + i) : 0;
}

uint64_t sp_hist_upper(unsigned i)
{
	return i + 1 < SP_HIST_N ? (uint64_t)1 << (SP_HIST_MIN + i + 1) : 0;
}

uint64_t sp_hist_calls(const struct sp_hist *h)
{
	uint64_t n = 0;
	unsigned i;

	for (i = 0; h && i < SP_HIST_N; i++)
		n += h->n[i];	/* the parser keeps every sum below 2^64 */
	return n;
}

bool sp_hist_range(const struct sp_hist *h, unsigned *first, unsigned *last)
{
	unsigned i;
	bool any = false;

	for (i = 0; h && i < SP_HIST_N; i++) {
		if (!h->n[i])
			continue;
		if (!any)
			*first = i;
		*last = i;
		any = true;
	}
	return any;
}

bool sp_hist_percentile(const struct sp_hist *h, unsigned pct, uint64_t max_ns,
			uint64_t *out)
{
	uint64_t calls = sp_hist_calls(h), start, end;
	sp_u128 rank = (sp_u128)pct * calls, below = 0, den, num, v;
	unsigned b;

	if (!calls)
		return false;
	/* the first bucket whose cumulative count reaches the rank (x100) */
	for (b = 0; b < SP_HIST_N - 1; b++) {
		if (100 * (below + h->n[b]) >= rank && h->n[b])
			break;
		below += h->n[b];
	}
	start = sp_hist_lower(b);
	end = b + 1 < SP_HIST_N ? sp_hist_upper(b) : max_ns;
	if (end < start)
		end = start;
	num = rank - 100 * below;	/* (rank within the bucket) x 100 */
	den = (sp_u128)100 * h->n[b];
	if (den >> 64) {
		/* more than 2^57 calls in one bucket: not exact, but close */
		long double f = (long double)num / (long double)den;

		v = start + (sp_u128)((long double)(end - start) * f);
	} else {
		v = start + (sp_u128)(end - start) * num / den;
	}
	*out = v > max_ns ? max_ns : (uint64_t)v;
	return true;
}
