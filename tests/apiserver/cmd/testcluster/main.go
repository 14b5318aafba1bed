// Command testcluster runs a real etcd and a real kube-apiserver on loopback
// for sextantd's integration tests.
//
// It is one binary with several roles:
//
//	testcluster --dir D [--crds DIR]...    supervisor: etcd (embedded), certs,
//	                                       kubeconfigs, CRDs, control endpoint
//	testcluster kube-apiserver ARGS...     upstream kube-apiserver main; the
//	                                       supervisor runs itself in this role
//	                                       as a child process, so that the
//	                                       apiserver can be restarted while
//	                                       etcd keeps running
//	testcluster kube-scheduler ARGS...     upstream kube-scheduler main
//	testcluster kube-controller-manager ARGS...
//	                                       upstream kube-controller-manager main;
//	                                       the supervisor starts these roles
//	                                       after the apiserver when --controllers
//	                                       names them
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case apiserverRole:
			os.Exit(runAPIServer(os.Args[2:]))
		case schedulerRole:
			os.Exit(runScheduler(os.Args[2:]))
		case controllerManagerRole:
			os.Exit(runControllerManager(os.Args[2:]))
		}
	}
	if err := runSupervisor(os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "testcluster: %v\n", err)
		os.Exit(1)
	}
}
