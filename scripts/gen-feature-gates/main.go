// Prints every feature gate a kube-scheduler binary knows (its
// DefaultMutableFeatureGate), one per line: name, default, maturity, lock;
// then each gate's dependencies ("DEP" lines). gen.py turns the output into
// src/config/feature_gates_v135.inc. Built inside an extracted tree that
// vendors k8s.io/kubernetes (see gen.sh); never vendored into ksched.
package main

import (
	"fmt"
	"sort"

	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/component-base/featuregate"
	_ "k8s.io/kubernetes/pkg/features"
)

func main() {
	gates := utilfeature.DefaultMutableFeatureGate
	all := gates.GetAll()
	var names []string
	for n := range all {
		names = append(names, string(n))
	}
	sort.Strings(names)
	for _, n := range names {
		s := all[featuregate.Feature(n)]
		fmt.Printf("GATE\t%s\t%v\t%s\t%v\n", n, s.Default, s.PreRelease, s.LockToDefault)
	}
	deps := gates.Dependencies()
	for _, n := range names {
		for _, d := range deps[featuregate.Feature(n)] {
			fmt.Printf("DEP\t%s\t%s\n", n, d)
		}
	}
}
