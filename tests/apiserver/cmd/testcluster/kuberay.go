package main

// KubeRay (tests/controllers/bin/kuberay, its unmodified upstream main) runs beside the
// apiserver when --kuberay names its binary. Unlike Kueue and JobSet it needs no config file
// and no certificates: its webhooks are off unless ENABLE_WEBHOOKS=true, so flags suffice.
// Leader election is off and metrics and probes bind "0" (not served), so that nothing binds
// a fixed port and two clusters can run at once. Console-encoded logs stay readable in
// DIR/kuberay.log.
func kubeRayArgs() []string {
	return []string{
		"--enable-leader-election=false",
		"--metrics-addr=0",
		"--health-probe-bind-address=0",
		"--log-stdout-encoder=console",
	}
}

// kubeRayEnv points it at the cluster; ENABLE_WEBHOOKS is set to false so that a value in the
// test's own environment cannot turn the webhooks on.
func kubeRayEnv(kubeconfig string) []string {
	return []string{"KUBECONFIG=" + kubeconfig, "ENABLE_WEBHOOKS=false"}
}
