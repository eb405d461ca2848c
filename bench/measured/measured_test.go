package measured

import "testing"

func TestSummarize(t *testing.T) {
	st := Summarize([]float64{-0.1, 0.02, 0.04, -0.03})
	if st.MaxAbs != 0.1 || st.UnderRate != 0.5 || st.MedianAbs < 0.0349 || st.MedianAbs > 0.0351 {
		t.Errorf("Summarize = %+v", st)
	}
}
