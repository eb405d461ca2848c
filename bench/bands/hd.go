package main

import (
	"math"
	"sort"
)

// A level's quantile is an order statistic of its rows' scores (split
// conformal: orderBand). With few rows the order statistic at 95% is the
// most extreme score, one row's: level 2's 33 rows put every level-2 band
// at the one +95% miss (ViT pure bf16), level 1's 70 at the one +22% miss,
// and a row more or less moves the band by half. Where the conformal
// order statistic is one of the two most extreme scores, the band takes
// the Harrell–Davis estimate of the same quantile instead: a mean of all
// the order statistics weighted by the Beta((n+1)p, (n+1)(1−p))
// distribution of the p-quantile's rank (Harrell & Davis, Biometrika
// 1982), which lets the rows next to the extreme say how far the tail
// reaches. bench/bands checks its coverage by leaving each capture set out.

// hdMinOrder is the rank from the end below which an order statistic is
// replaced by the Harrell–Davis estimate (orderBand's kHi or kLo).
const hdMinOrder = 3

// levelBand is orderBand, or the Harrell–Davis estimates of the
// (1−conf)/2 and 1−(1−conf)/2 quantiles on a side whose order statistic
// is within hdMinOrder−1 of the end.
func levelBand(zs []float64, conf float64, spareLow bool) [2]float64 {
	b := orderBand(zs, conf, spareLow)
	if len(zs) == 0 {
		return b
	}
	n1 := float64(len(zs) + 1)
	kHi := max(int(math.Floor((1-conf)/2*n1)), 1)
	kLo := kHi
	if spareLow {
		kLo = max(int(math.Floor((1-conf)*n1))-kHi, 1)
	}
	if kLo < hdMinOrder {
		b[0] = harrellDavis(zs, (1-conf)/2)
	}
	if kHi < hdMinOrder {
		b[1] = harrellDavis(zs, 1-(1-conf)/2)
	}
	return b
}

// harrellDavis is the Harrell–Davis estimate of the p-quantile of zs.
func harrellDavis(zs []float64, p float64) float64 {
	s := append([]float64(nil), zs...)
	sort.Float64s(s)
	n := float64(len(s))
	a, b := p*(n+1), (1-p)*(n+1)
	var q, prev float64
	for i, z := range s {
		cur := regIncBeta(float64(i+1)/n, a, b)
		q += (cur - prev) * z
		prev = cur
	}
	return q
}

// regIncBeta is the regularised incomplete beta function I_x(a, b), by
// its continued fraction (modified Lentz), on the side where it
// converges fast.
func regIncBeta(x, a, b float64) float64 {
	switch {
	case x <= 0:
		return 0
	case x >= 1:
		return 1
	}
	la, _ := math.Lgamma(a)
	lb, _ := math.Lgamma(b)
	lab, _ := math.Lgamma(a + b)
	front := math.Exp(lab - la - lb + a*math.Log(x) + b*math.Log1p(-x))
	if x > (a+1)/(a+b+2) {
		return 1 - front*betaCF(1-x, b, a)/b
	}
	return front * betaCF(x, a, b) / a
}

// betaCF is the continued fraction of I_x(a, b).
func betaCF(x, a, b float64) float64 {
	const tiny, eps = 1e-300, 1e-14
	c, d := 1.0, 1-(a+b)*x/(a+1)
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	for m := 1.0; m <= 500; m++ {
		for _, num := range []float64{
			m * (b - m) * x / ((a + 2*m - 1) * (a + 2*m)),
			-(a + m) * (a + b + m) * x / ((a + 2*m) * (a + 2*m + 1)),
		} {
			d = 1 + num*d
			if math.Abs(d) < tiny {
				d = tiny
			}
			c = 1 + num/c
			if math.Abs(c) < tiny {
				c = tiny
			}
			d = 1 / d
			h *= d * c
		}
		if math.Abs(d*c-1) < eps {
			break
		}
	}
	return h
}
