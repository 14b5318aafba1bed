package main

import (
	"os"
	"strconv"
	"time"
	_ "time/tzdata" // as upstream's main: CronJob time zones

	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/logs/json/register"          // as upstream's main
	_ "k8s.io/component-base/metrics/prometheus/clientgo" // as upstream's main
	_ "k8s.io/component-base/metrics/prometheus/version"  // as upstream's main
	"k8s.io/kubernetes/cmd/kube-apiserver/app"
)

const (
	apiserverRole = "kube-apiserver"
	// parentPIDEnv carries the supervisor's pid to the apiserver child, which
	// exits when it is re-parented (the supervisor was killed with SIGKILL).
	parentPIDEnv = "TESTCLUSTER_PARENT_PID"
)

// runAPIServer is upstream cmd/kube-apiserver's main with the given flags.
func runAPIServer(args []string) int {
	exitWithParent()
	cmd := app.NewAPIServerCommand()
	cmd.SetArgs(args)
	return cli.Run(cmd)
}

// exitWithParent makes a child role exit when it is re-parented (the supervisor was killed
// with SIGKILL), so no apiserver or controller outlives its cluster.
func exitWithParent() {
	if p, err := strconv.Atoi(os.Getenv(parentPIDEnv)); err == nil && p > 1 {
		go func() {
			for range time.Tick(250 * time.Millisecond) {
				if os.Getppid() != p {
					os.Stderr.WriteString("testcluster " + os.Args[1] + ": supervisor is gone, exiting\n")
					os.Exit(3)
				}
			}
		}()
	}
}
