package main

import (
	"math"
	"sort"

	"github.com/vramkit/vramkit/internal/memmodel"
)

// The band of a class is a prediction interval for the next workload's
// log ratio measured/predicted, x = ln(meas/pred): centre and spread are
// the class's own, shrunk toward the pooled ones with the weight of
// priorRows rows, so that a class of three rows does not claim to know
// its spread (nor get the width of Student's t at two degrees of freedom)
// while a class the model is biased on keeps its bias: a model that
// under-predicts a class gets a higher top there.

// priorRows is the weight of the pooled estimate in a class's band.
const priorRows = 4

// minSpread is the smallest standard deviation of x a band assumes: two
// runs of one workload differ by a segment or two.
const minSpread = 0.004

// moments are the mean and standard deviation of xs.
func moments(xs []float64) (mean, sd float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	for _, x := range xs {
		sd += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(sd / float64(len(xs)-1))
}

// robust are the median and the normal-consistent median absolute
// deviation of xs: the prior a class is shrunk toward, which one class's
// large errors (a technique the model misses) must not widen for all.
func robust(xs []float64) (centre, scale float64) {
	centre = median(xs)
	dev := make([]float64, len(xs))
	for i, x := range xs {
		dev[i] = math.Abs(x - centre)
	}
	return centre, 1.4826 * median(dev)
}

// zScore is the two-sided standard normal quantile for conf.
func zScore(conf float64) float64 {
	// bisection on the normal CDF; conf is a table constant
	lo, hi := 0.0, 10.0
	for i := 0; i < 100; i++ {
		m := (lo + hi) / 2
		if math.Erf(m/math.Sqrt2) < conf {
			lo = m
		} else {
			hi = m
		}
	}
	return (lo + hi) / 2
}

// interval is the shrunk prediction interval of xs (log ratios) as a
// ratio band; pooled is every row's (mean, sd).
func interval(xs []float64, pooledMean, pooledSD, z float64) [2]float64 {
	n := float64(len(xs))
	mean, sd := moments(xs)
	if len(xs) < 2 {
		sd = 0
	}
	m := (n*mean + priorRows*pooledMean) / (n + priorRows)
	v := (math.Max(n-1, 0)*sd*sd + priorRows*pooledSD*pooledSD) / (math.Max(n-1, 0) + priorRows)
	s := math.Max(math.Sqrt(v), minSpread)
	half := z * s * math.Sqrt(1+1/(n+priorRows))
	return [2]float64{round4(math.Exp(m - half)), round4(math.Exp(m + half))}
}

func round4(v float64) float64 { return math.Round(v*1e4) / 1e4 }

// errOf is the signed relative error of a prediction from a log ratio.
func errOf(x float64) float64 { return math.Exp(-x) - 1 }

// classBand builds one class's entry from its rows' log ratios.
func classBand(names []string, xr, xa []float64, pooledR, pooledA [2]float64, z float64) memmodel.ClassBand {
	cb := memmodel.ClassBand{N: len(xr), Rows: append([]string(nil), names...)}
	sort.Strings(cb.Rows)
	errs := make([]float64, len(xr))
	abs := make([]float64, len(xr))
	for i, x := range xr {
		errs[i] = errOf(x)
		abs[i] = math.Abs(errs[i])
	}
	cb.MedianErr, cb.MedianAbsErr = round4(median(errs)), round4(median(abs))
	cb.Reserved = interval(xr, pooledR[0], pooledR[1], z)
	if len(xa) > 0 {
		cb.Allocated = interval(xa, pooledA[0], pooledA[1], z)
	}
	return cb
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
