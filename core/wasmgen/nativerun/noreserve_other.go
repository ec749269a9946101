//go:build !linux

package nativerun

const mapNoReserve = 0
