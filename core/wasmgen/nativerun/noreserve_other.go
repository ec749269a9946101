//go:build !linux

package nativerun

const mapNoReserve = 0

const madvHugePage = 0
