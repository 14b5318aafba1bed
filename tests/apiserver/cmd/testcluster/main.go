// Command testcluster runs a real etcd and a real kube-apiserver on loopback
// for sextantd's integration tests.
//
// It is one binary with two roles:
//
//	testcluster --dir D [--crds DIR]...    supervisor: etcd (embedded), certs,
//	                                       kubeconfigs, CRDs, control endpoint
//	testcluster kube-apiserver ARGS...     upstream kube-apiserver main; the
//	                                       supervisor runs itself in this role
//	                                       as a child process, so that the
//	                                       apiserver can be restarted while
//	                                       etcd keeps running
package main

import (
	"fmt"
	"os"
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == apiserverRole {
		os.Exit(runAPIServer(os.Args[2:]))
	}
	if err := runSupervisor(os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "testcluster: %v\n", err)
		os.Exit(1)
	}
}
